import path from 'node:path';
import { loadConfig, type Config } from '../../src/config.js';
import { openCore, startServer, type Core } from '../../src/parley.js';
import { startWorkers } from '../../src/workers.js';
import type { FastifyInstance } from 'fastify';
import type { LogStream } from '../../src/http/server.js';
import { joinWorkspace } from '../../src/domain/memberships.js';
import { hashPassword } from '../../src/domain/passwords.js';
import type { MemberRole } from '../../src/store/store.js';
import { createScratchStore, type ScratchStore, type StoreKind } from './stores.js';

export interface Workspace {
  id: string;
  key: string;
}

/** A person signed in to the dashboard: their session cookie's value and an access token for one workspace. */
export interface SignedInMember {
  userId: string;
  /** The person as a member of the workspace: assignee and sender ids. */
  memberId: string;
  email: string;
  password: string;
  sessionSecret: string;
  accessToken: string;
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
  config: Config;
  scratch: ScratchStore;
  /** The built-in SMTP listener's port, with workers and PARLEY_MAIL_INBOUND_PORT set (0 takes a free one); null otherwise. */
  mailInboundPort: number | null;
  newWorkspace(name?: string): Promise<Workspace>;
  /** A user with a password, an active member of the workspace with `role`, signed in. */
  newMember(workspaceId: string, role?: MemberRole): Promise<SignedInMember>;
  call<T = unknown>(method: string, path: string, options?: CallOptions): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

let workspaceCounter = 0;

export interface TestParleyOptions {
  env?: Record<string, string>;
  /** A store to share (with a child process in CLI tests); a new scratch store otherwise. */
  scratch?: ScratchStore;
  /** A SQLite data directory to use and keep (eval's `--keep`); implies the embedded store. */
  keepDir?: string;
  /** Run the background workers in-process too, as `parley start` does. */
  workers?: boolean;
  /** Receives the server's log lines (set PARLEY_LOG_LEVEL in `env`: tests log nothing by default). */
  logStream?: LogStream;
}

/**
 * The one in-process Parley of tests, `npm run bench` and `npm run eval`: the API on loopback, the job
 * workers when asked, over a scratch store (dropped on close) unless one is handed in. A start that fails
 * half-way undoes what it had done, so no server, worker pool or database is left behind.
 */
export async function startTestParley(kind: StoreKind, options: TestParleyOptions = {}): Promise<TestParley> {
  const scratch: ScratchStore = options.scratch ?? (options.keepDir === undefined ? await createScratchStore(kind) : keptDataDir(options.keepDir));
  // Undone last-first on close, or as far as the start got when it fails.
  const undo: (() => Promise<void>)[] = [];
  // A store handed in belongs to the caller, who may start Parley on it again.
  if (options.scratch === undefined) undo.push(() => scratch.drop());
  const close = async () => {
    for (const step of undo.splice(0).reverse()) await step();
  };
  try {
    const config = loadConfig({
      ...scratch.env,
      PORT: '0',
      PARLEY_LOG_LEVEL: 'silent',
      // This machine only: no test may reach anything outside it (README, PARLEY_OUTBOUND_ALLOW).
      PARLEY_OUTBOUND_ALLOW: 'loopback',
      ...options.env,
    });
    const core = await openCore(config);
    undo.push(() => core.close());
    let mailInboundPort: number | null = null;
    if (options.workers) {
      const workers = await startWorkers(config, core, (error) => console.error('[parley worker]', error));
      undo.push(() => workers.stop());
      mailInboundPort = workers.mailInboundPort;
    }
    // Unless a test reads the log itself, a request that fails on our side prints its cause, so a 500 in CI says why.
    const { app, url } =
      options.logStream === undefined && options.env?.PARLEY_LOG_LEVEL === undefined
        ? await startServer({ ...config, logLevel: 'error' }, core, { logStream: serverFailuresToStderr })
        : await startServer(config, core, { logStream: options.logStream });
    undo.push(() => app.close());
    return {
      url,
      app,
      core,
      config,
      scratch,
      mailInboundPort,
      call: (method, path, callOptions) => callParley(url, method, path, callOptions),
      async newWorkspace(name = `workspace ${++workspaceCounter} ${Math.random().toString(36).slice(2, 8)}`) {
        const { workspace } = await core.services.workspaces.findOrCreate(name);
        const { secret } = await core.services.keys.issue(workspace.id);
        return { id: workspace.id, key: secret };
      },
      async newMember(workspaceId, role = 'owner') {
        const { accounts } = core.services;
        const email = `person-${++workspaceCounter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
        const password = 'correct horse battery';
        const user = await accounts.ensureUser(email, 'Test person');
        await core.store.users.update(user.id, { passwordHash: await hashPassword(password) }, new Date().toISOString());
        await joinWorkspace(core.store, workspaceId, user, role);
        const { sessionSecret } = await accounts.signIn({ email, password }, 'test');
        const { accessToken } = await accounts.mintAccessToken(sessionSecret, workspaceId);
        const member = await core.store.members.findByUser(workspaceId, user.id);
        return { userId: user.id, memberId: member!.id, email, password, sessionSecret, accessToken };
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The API's error lines (a request that failed on our side) on standard error; its other lines nowhere. */
const serverFailuresToStderr: LogStream = {
  write(line: string) {
    if (line.includes('"level":50')) process.stderr.write(`[parley server] ${line}`);
  },
};

/** A kept SQLite data directory in the shape of a scratch store that is never dropped. */
function keptDataDir(dataDir: string): ScratchStore {
  return {
    config: { kind: 'sqlite', file: path.join(dataDir, 'parley.sqlite') },
    dataDir,
    env: { PARLEY_DATA_DIR: dataDir },
    drop: async () => undefined,
  };
}

/** One HTTP call as a client makes it to the Parley at `url`: JSON in and out, the key as a bearer credential. */
export async function callParley<T>(url: string, method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
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
}
