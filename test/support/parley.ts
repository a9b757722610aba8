import { loadConfig } from '../../src/config.js';
import { openCore, startServer, type Core } from '../../src/parley.js';
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

/** Starts Parley on a new scratch store, or on `existing` (shared with a child process in CLI tests). */
export async function startTestParley(
  kind: StoreKind,
  env: Record<string, string> = {},
  existing?: ScratchStore,
): Promise<TestParley> {
  const scratch = existing ?? (await createScratchStore(kind));
  const config = loadConfig({ ...scratch.env, PORT: '0', PARLEY_LOG_LEVEL: 'silent', ...env });
  const core = await openCore(config);
  const { app, url } = await startServer(config, core);

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
      await core.close();
      await scratch.drop();
    },
  };
}
