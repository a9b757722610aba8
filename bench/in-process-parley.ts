import { loadConfig, type Config } from '../src/config.js';
import { openCore, startServer, startWorkers, type Core, type RunningServer, type RunningWorkers } from '../src/parley.js';
import { isJsonObject } from '../src/text/json-object.js';
import { createScratchStore, type ScratchStore, type StoreKind } from '../test/support/stores.js';

/** An HTTP answer whose body is still to be checked by the caller. */
export interface BenchResponse {
  status: number;
  body: unknown;
}

/**
 * Parley as `parley start` runs it (API and job workers in one process) on a scratch store, called over
 * loopback like a client would. The store is dropped on close.
 */
export interface InProcessParley {
  readonly url: string;
  readonly config: Config;
  readonly core: Core;
  /** A key of the bench workspace. */
  readonly key: string;
  call(method: string, path: string, body?: unknown): Promise<BenchResponse>;
  close(): Promise<void>;
}

export interface StartOptions {
  store: StoreKind;
  /** Worker threads of the local embedding model. */
  embedderThreads: number;
  /** More configuration, e.g. PARLEY_MODELS for a model served on loopback. */
  env?: Record<string, string>;
}

export async function startInProcessParley(options: StartOptions): Promise<InProcessParley> {
  const scratch: ScratchStore = await createScratchStore(options.store);
  const config = loadConfig({
    ...scratch.env,
    PORT: '0',
    PARLEY_LOG_LEVEL: 'silent',
    PARLEY_EMBEDDINGS_THREADS: String(options.embedderThreads),
    // Every mode asks the same queries: cached query vectors would time the cache, not the engine.
    PARLEY_QUERY_CACHE_SIZE: '0',
    ...options.env,
  });
  let core: Core | undefined;
  let workers: RunningWorkers | undefined;
  let server: RunningServer | undefined;
  const close = async () => {
    await server?.app.close();
    await workers?.stop();
    await core?.close();
    await scratch.drop();
  };
  try {
    core = await openCore(config);
    workers = await startWorkers(config, core, (error) => console.error('[bench] job error:', error));
    server = await startServer(config, core);
    const { workspace } = await core.services.workspaces.findOrCreate('bench');
    const { secret } = await core.services.keys.issue(workspace.id);
    const url = server.url;
    return {
      url,
      config,
      core,
      key: secret,
      async call(method, path, body) {
        const headers: Record<string, string> = { authorization: `Bearer ${secret}` };
        if (body !== undefined) headers['content-type'] = 'application/json';
        const response = await fetch(url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
        const text = await response.text();
        const isJson = response.headers.get('content-type')?.includes('json') ?? false;
        return { status: response.status, body: isJson && text !== '' ? (JSON.parse(text) as unknown) : text };
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The body of a 2xx answer, or an error naming the call and what came back. */
export function expectOk(what: string, response: BenchResponse): unknown {
  if (response.status < 200 || response.status >= 300) {
    throw new Error(`${what} answered ${response.status}: ${JSON.stringify(response.body).slice(0, 500)}`);
  }
  return response.body;
}

/** A string field of an API object, or an error saying which one is missing. */
export function stringField(value: unknown, field: string): string {
  const found = isJsonObject(value) ? value[field] : undefined;
  if (typeof found !== 'string') throw new Error(`expected a string "${field}" in ${JSON.stringify(value).slice(0, 200)}`);
  return found;
}
