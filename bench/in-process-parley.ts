import type { Config } from '../src/config.js';
import type { Core } from '../src/parley.js';
import { startTestParley } from '../test/support/parley.js';
import type { StoreKind } from '../test/support/stores.js';
import { isJsonObject } from '../src/text/json-object.js';

/** An HTTP answer whose body is still to be checked by the caller. */
export interface BenchResponse {
  status: number;
  body: unknown;
}

/**
 * Parley as `parley start` runs it (API and job workers in one process) on a scratch store, called over
 * loopback like a client would, with a key of its own workspace: the tests' harness, as the bench uses it.
 */
export interface InProcessParley {
  readonly url: string;
  readonly config: Config;
  readonly core: Core;
  /** The bench workspace, and a key of it. */
  readonly workspaceId: string;
  readonly key: string;
  /** Environment variables that point a child `parley` process at the same store. */
  readonly storeEnv: Record<string, string>;
  /** The built-in SMTP listener's port when PARLEY_MAIL_INBOUND_PORT is set in `env`; null otherwise. */
  readonly mailInboundPort: number | null;
  /** A new member of the bench workspace (a signed-in person): its member id. */
  newMember(): Promise<string>;
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
  const parley = await startTestParley(options.store, {
    workers: true,
    env: {
      PARLEY_EMBEDDINGS_THREADS: String(options.embedderThreads),
      // Every mode asks the same queries: cached query vectors would time the cache, not the engine.
      PARLEY_QUERY_CACHE_SIZE: '0',
      // The bench sends as fast as it can with one key: the rate limit would time itself, not the engine.
      PARLEY_RATE_LIMIT_KEY_PER_MINUTE: '1000000',
      ...options.env,
    },
  });
  try {
    const { id: workspaceId, key } = await parley.newWorkspace('bench');
    return {
      url: parley.url,
      config: parley.config,
      core: parley.core,
      workspaceId,
      key,
      storeEnv: parley.scratch.env,
      mailInboundPort: parley.mailInboundPort,
      newMember: async () => (await parley.newMember(workspaceId)).memberId,
      call: async (method, path, body) => {
        const { status, body: answer } = await parley.call<unknown>(method, path, { key, body });
        return { status, body: answer };
      },
      close: () => parley.close(),
    };
  } catch (error) {
    await parley.close();
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
