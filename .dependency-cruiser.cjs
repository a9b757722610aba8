/**
 * The layers of src/ (docs/architecture.md): each folder names the folders it may import from; anything else,
 * and any import cycle, fails `npm run lint`. The entry points (main.ts, parley.ts, event-workers.ts, backup-commands.ts) wire
 * everything together and may import anything; config.ts and errors.ts (the error catalogue) sit below every layer.
 */
const MAY_IMPORT = {
  http: ['domain', 'store', 'events', 'text', 'observability'],
  domain: ['rag', 'llm', 'store', 'jobs', 'events', 'net', 'text', 'observability'],
  jobs: ['rag', 'llm', 'store', 'events', 'net', 'text', 'observability'],
  events: ['store', 'net', 'text', 'observability'],
  rag: ['llm', 'store', 'net', 'text', 'threads', 'observability'],
  llm: ['text', 'threads', 'observability'],
  store: ['text', 'observability'],
  net: [],
  text: [],
  threads: [],
  // The process's Prometheus instruments and the request context (which request a job or event came from): every layer records into them, they import nothing of ours.
  observability: [],
};

const layerRules = Object.entries(MAY_IMPORT).map(([layer, below]) => ({
  name: `${layer}-imports-only-below`,
  comment: `src/${layer}/ may import only from ${[layer, ...below, 'config.ts', 'errors.ts'].join(', ')} (docs/architecture.md)`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: { path: '^src/', pathNot: `^src/(${[layer, ...below].join('|')})/|^src/(config|errors)\\.ts$` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-cycles',
      comment: 'Modules import each other in one direction only: a cycle means a concept is split in the wrong place',
      severity: 'error',
      from: {},
      to: { circular: true },
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
