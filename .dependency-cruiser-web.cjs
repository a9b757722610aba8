/**
 * The layers of the dashboard (web/dashboard/src, docs/architecture.md "The web"): each folder names the folders it may
 * import from; anything else, and any import cycle in the dashboard or the widget, fails `npm run lint`.
 * `api` is the one fetch module (api.ts with its event-stream reader, server-sent-events.ts); the entry points
 * (main.tsx, app.tsx, workspace-area.tsx, page-chunks.ts, first-screen.ts) wire everything together and may import anything. Both apps may also import
 * the contract shared with the server (web/contract/, src/contract/) and nothing else of the repository.
 */
const MAY_IMPORT = {
  pages: ['shell', 'components', 'live', 'queries', 'session', 'api'],
  shell: ['components', 'queries', 'session'],
  // Server state: queries own the cache, live events update it; a query reads the workspace it is for from the session.
  live: ['queries', 'session', 'api'],
  queries: ['live', 'session', 'api'],
  // The session provider loads who is signed in through its query and shows its loading and error states.
  session: ['queries', 'components', 'api'],
  // Components show the API's records (types only) and its errors.
  components: ['queries', 'api'],
  api: [],
};

const dashboard = '^web/dashboard/src/';
const contract = '^(web|src)/contract/';
const folderOf = (layer) => (layer === 'api' ? `${dashboard}(api|server-sent-events)\\.ts$` : `${dashboard}${layer}/`);
const anyOf = (layers) => layers.map(folderOf).join('|');

const layerRules = Object.entries(MAY_IMPORT).map(([layer, below]) => ({
  name: `dashboard-${layer}-imports-only-below`,
  comment: `web/dashboard/src/${layer} may import only from ${[layer, ...below].join(', ')} (docs/architecture.md)`,
  severity: 'error',
  from: { path: folderOf(layer) },
  to: { path: dashboard, pathNot: anyOf([layer, ...below]) },
}));

// The server's rule against cycles and its options hold here too; the apps resolve their imports as written, without a tsconfig.
const server = require('./.dependency-cruiser.cjs');
const { tsConfig: _serverTsConfig, ...options } = server.options;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    server.forbidden.find((rule) => rule.name === 'no-cycles'),
    {
      name: 'no-unknown-folder',
      comment: 'A new folder of the dashboard must be given its place among the layers above',
      severity: 'error',
      from: { path: `${dashboard}[^/]+/`, pathNot: `${dashboard}(${Object.keys(MAY_IMPORT).join('|')})/` },
      to: {},
    },
    // The dashboard and the widget are built apart from the server and from each other (the widget ships alone on
    // other sites): of the repository each imports only itself and the contract; the dashboard's widget preview also
    // draws with the widget's own words and accent rule (DOM-free modules), so the two cannot drift apart.
    ...Object.entries({ dashboard: '|^web/widget/src/(strings/|accent\\.ts$)', widget: '' }).map(([app, shared]) => ({
      name: `${app}-imports-only-itself-and-the-contract`,
      severity: 'error',
      from: { path: `^web/${app}/src/` },
      to: { path: '^(web|src)/', pathNot: `^web/${app}/src/|${contract}${shared}` },
    })),
  ],
  options,
};

// The table, for eslint.config.js and the test that keeps docs/architecture.md equal to it (not enumerable: dependency-cruiser refuses keys it does not know).
Object.defineProperty(module.exports, 'MAY_IMPORT', { value: MAY_IMPORT });
