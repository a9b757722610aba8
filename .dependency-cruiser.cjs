/**
 * The layers of src/ (docs/architecture.md): each folder names the folders it may import from; anything else,
 * and any import cycle, fails `npm run lint`. The entry points (main.ts, parley.ts, workers.ts, backup-commands.ts) wire
 * everything together and may import anything; config.ts (with config-environment.ts, the variables' schema) and errors.ts (the error catalogue) sit
 * below every layer.
 */
const MAY_IMPORT = {
  http: ['domain', 'store', 'events', 'text', 'observability'],
  domain: ['rag', 'llm', 'channels', 'store', 'jobs', 'events', 'net', 'text', 'observability'],
  // A generic runner: what it runs (ingestion, deliveries) lives with the use case that needs it.
  jobs: ['store', 'observability'],
  events: ['store', 'jobs', 'net', 'text', 'observability'],
  rag: ['llm', 'store', 'net', 'text', 'threads', 'observability'],
  llm: ['text', 'threads', 'observability'],
  // Vendors' messaging protocols (e-mail, Telegram): what they send and take, in Parley's terms; no store, no conversations.
  channels: ['net', 'text', 'observability'],
  store: ['text', 'observability'],
  net: [],
  text: [],
  threads: [],
  // The process's Prometheus instruments and the request context (which request a job or event came from): every layer records into them, they import nothing of ours.
  observability: [],
  // The API's wire types and what the server and the web projects share (src/contract): every layer may read them, they import nothing of ours.
  contract: [],
};

/** The folders `layer` may import: its own, those below it, and the contract, which every layer reads. */
const reachable = (layer, below) => [layer, ...below, ...(layer === 'contract' ? [] : ['contract'])];

const layerRules = Object.entries(MAY_IMPORT).map(([layer, below]) => ({
  name: `${layer}-imports-only-below`,
  comment: `src/${layer}/ may import only from ${[...reachable(layer, below), 'config.ts', 'config-environment.ts', 'errors.ts'].join(', ')} (docs/architecture.md)`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: { path: '^src/', pathNot: `^src/(${reachable(layer, below).join('|')})/|^src/(config|config-environment|errors)\\.ts$` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'contract-stands-alone',
      comment: 'src/contract/ is compiled into the dashboard and the widget: it imports nothing of ours outside itself (docs/architecture.md)',
      severity: 'error',
      from: { path: '^src/contract/' },
      to: { path: '^src/', pathNot: '^src/contract/' },
    },
    {
      name: 'no-cycles',
      comment: 'Modules import each other in one direction only: a cycle means a concept is split in the wrong place',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'runs-on-production-dependencies',
      comment: 'The server runs from `npm install --omit=dev`: what src/ imports (types aside) is a dependency, not a devDependency',
      severity: 'error',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-unknown-folder',
      comment: 'A new folder of src/ must be given its place among the layers above',
      severity: 'error',
      from: { path: '^src/[^/]+/', pathNot: `^src/(${Object.keys(MAY_IMPORT).join('|')})/` },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(node_modules|dist)/' },
  },
};

// The table, for eslint.config.js and the test that keeps docs/architecture.md equal to it (not enumerable: dependency-cruiser refuses keys it does not know).
Object.defineProperty(module.exports, 'MAY_IMPORT', { value: MAY_IMPORT });
