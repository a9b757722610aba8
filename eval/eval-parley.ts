import type { Config } from '../src/config.js';
import { startTestParley } from '../test/support/parley.js';
import type { StoreKind } from '../test/support/stores.js';

/** The workspace the evaluation works in; found again when a kept data directory is reused. */
const WORKSPACE_NAME = 'parley-eval';

export interface EvalParleyOptions {
  store: StoreKind;
  /** A SQLite data directory to use and keep (`--keep`); a scratch store, dropped on close, otherwise. */
  keepDir?: string;
  /** PARLEY_* settings: chunking, embeddings, worker concurrency. */
  env: Record<string, string>;
}

/** Parley running in this process as `parley start` runs it (API and ingestion workers), with a key: the tests' harness. */
export interface EvalParley {
  url: string;
  key: string;
  config: Config;
  close(): Promise<void>;
}

export async function startEvalParley(options: EvalParleyOptions): Promise<EvalParley> {
  const parley = await startTestParley(options.store, { workers: true, keepDir: options.keepDir, env: options.env });
  try {
    const { workspace } = await parley.core.services.workspaces.findOrCreate(WORKSPACE_NAME);
    const { secret } = await parley.core.services.keys.issue(workspace.id, 'eval');
    return { url: parley.url, key: secret, config: parley.config, close: () => parley.close() };
  } catch (error) {
    await parley.close();
    throw error;
  }
}
