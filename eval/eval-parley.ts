import { loadConfig, type Config } from '../src/config.js';
import { openCore, startServer, startWorkers } from '../src/parley.js';
import { createScratchStore, type StoreKind } from '../test/support/stores.js';

/** The workspace the evaluation works in; found again when a kept data directory is reused. */
const WORKSPACE_NAME = 'parley-eval';

export interface EvalParleyOptions {
  store: StoreKind;
  /** A SQLite data directory to use and keep (`--keep`); a scratch store, dropped on close, otherwise. */
  keepDir?: string;
  /** PARLEY_* settings: chunking, embeddings, worker concurrency. */
  env: Record<string, string>;
}

/** Parley running in this process as `parley start` runs it (API and ingestion workers), with a key. */
export interface EvalParley {
  url: string;
  key: string;
  config: Config;
  close(): Promise<void>;
}

export async function startEvalParley(options: EvalParleyOptions): Promise<EvalParley> {
  const scratch =
    options.keepDir === undefined
      ? await createScratchStore(options.store)
      : { env: { PARLEY_DATA_DIR: options.keepDir }, drop: async () => undefined };
  // Undone last-first on close, or as far as start got when it fails half-way.
  const undo: (() => Promise<void>)[] = [() => scratch.drop()];
  const close = async () => {
    for (const step of undo.splice(0).reverse()) await step();
  };
  try {
    const config = loadConfig({ ...options.env, ...scratch.env, PORT: '0', PARLEY_LOG_LEVEL: 'silent' });
    const core = await openCore(config);
    undo.push(() => core.close());
    const workers = await startWorkers(config, core, (error) => console.error('[worker]', error));
    undo.push(() => workers.stop());
    const { app, url } = await startServer(config, core);
    undo.push(() => app.close());
    const { workspace } = await core.services.workspaces.findOrCreate(WORKSPACE_NAME);
    const { secret } = await core.services.keys.issue(workspace.id, 'eval');
    return { url, key: secret, config, close };
  } catch (error) {
    await close();
    throw error;
  }
}
