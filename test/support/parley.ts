import { loadConfig } from '../../src/config.js';
import { openCore, startServer, startWorkers, type Core } from '../../src/parley.js';
import type { FastifyInstance } from 'fastify';
import { createScratchStore, type ScratchStore, type StoreKind } from './stores.js';

export interface Workspace {
  id: string;
  key: string;
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** Options of one HTTP call; `body` is sent as JSON unless `raw` is given. */
export interface CallOptions {
  body?: unknown;
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
  /** `null` sends no Authorization header at all. */
  key?: string | null;
}

/** A running Parley on loopback over a scratch store, plus helpers to call it as a client would. */
export interface TestParley {
  url: string;
  app: FastifyInstance;
  core: Core;
  scratch: ScratchStore;
  newWorkspace(name?: string): Promise<Workspace>;
  call<T = any>(method: string, path: string, options?: CallOptions): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

let workspaceCounter = 0;

export interface TestParleyOptions {
  env?: Record<string, string>;
  /** A store to share (with a child process in CLI tests); a new scratch store otherwise. */
  scratch?: ScratchStore;
  /** Run the background workers in-process too, as `parley start` does. */
  workers?: boolean;
  /** Receives the server's log lines (set PARLEY_LOG_LEVEL in `env` to have some). */
  logStream?: { write(line: string): void };
}

/** Starts Parley on loopback; the API always, the job workers when asked. */
export async function startTestParley(kind: StoreKind, options: TestParleyOptions = {}): Promise<TestParley> {
  const scratch = options.scratch ?? (await createScratchStore(kind));
  const config = loadConfig({
    ...scratch.env,
    PORT: '0',
    PARLEY_LOG_LEVEL: 'silent',
    PARLEY_ALLOW_PRIVATE_URLS: '1',
    ...options.env,
  });
  const core = await openCore(config);
  const workers = options.workers ? await startWorkers(config, core, (error) => console.error(error)) : undefined;
  const { app, url } = await startServer(config, core, { logStream: options.logStream });

  const call = async <T>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    let body: string | Uint8Array | undefined = options.raw;
    if (body === undefined && options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(url + path, { method, headers, body });
    const text = await response.text();
    const isJson = response.headers.get('content-type')?.includes('json') ?? false;
    return { status: response.status, headers: response.headers, body: (isJson && text ? JSON.parse(text) : text) as T };
  };

  return {
    url,
    app,
    core,
    scratch,
    call,
    async newWorkspace(name = `workspace ${++workspaceCounter} ${Math.random().toString(36).slice(2, 8)}`) {
      const { workspace } = await core.services.workspaces.findOrCreate(name);
      const { secret } = await core.services.keys.issue(workspace.id);
      return { id: workspace.id, key: secret };
    },
    async close() {
      await app.close();
      await workers?.stop();
      await core.close();
      // A store handed in belongs to the caller, who may start Parley on it again.
      if (options.scratch === undefined) await scratch.drop();
    },
  };
}
