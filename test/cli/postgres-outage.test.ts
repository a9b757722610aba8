import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openCore, type Core } from '../../src/parley.js';
import type { DatasourceBody, DatastoreBody, ErrorBody } from '../support/bodies.js';
import { waitForDatasource } from '../support/datasources.js';
import { EventStreamClient } from '../support/event-stream.js';
import { FakeEmbeddingsServer } from '../support/fake-embeddings-server.js';
import { callParley, type ApiResponse, type CallOptions } from '../support/parley.js';
import { POSTGRES_ADMIN_URL, STORE_KINDS, createScratchStore, type ScratchStore } from '../support/stores.js';
import { runCli } from '../support/cli.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { until } from '../support/until.js';
import { startServeProcess, type ServeProcess } from '../support/worker-process.js';

/** The only answers a route may give while connections break: its own, or "try again". */
const ACCEPTABLE = new Set(['200', '503 UNAVAILABLE']);

/** How long the process may take to answer 200 again once the database is back. */
const RECOVERY_MS = 5_000;

/** One call's outcome, as counted: `200`, `503 UNAVAILABLE`, `500 INTERNAL`, or `no answer` (the process is gone). */
async function outcomeOf(call: Promise<ApiResponse<unknown>>): Promise<string> {
  try {
    const { status, body } = await call;
    return status === 200 ? '200' : `${status} ${(body as ErrorBody).error}`;
  } catch {
    return 'no answer';
  }
}

/**
 * Light traffic while `breakIt` runs: a list and a write with an API key, each in a loop of its own
 * (about 40 calls a second, at most 2,000); resolves with each outcome and how often it came.
 */
async function underTraffic(
  call: (method: string, route: string, options?: CallOptions) => Promise<ApiResponse<unknown>>,
  breakIt: () => Promise<void>,
) {
  const outcomes = new Map<string, number>();
  let calls = 0;
  let breaking = true;
  const loop = async (method: string, route: string, body?: unknown) => {
    while (breaking && calls < 2_000) {
      calls += 1;
      const outcome = await outcomeOf(call(method, route, { body }));
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      await sleep(25);
    }
  };
  const loops = [loop('GET', '/agents'), loop('POST', '/datastores', { name: 'traffic' })];
  try {
    await breakIt();
  } finally {
    breaking = false;
    await Promise.all(loops);
  }
  return Object.fromEntries(outcomes);
}

describe.runIf(STORE_KINDS.includes('postgres'))('parley start on PostgreSQL when its connections break or the database goes away', () => {
  const embeddings = new FakeEmbeddingsServer();
  let scratch: ScratchStore;
  let proxy: TcpProxy;
  let child: ServeProcess;
  /** What the child wrote on stderr: the crash, if it crashes. */
  let childErrors = '';
  /** The test's own view of the database, straight (not through the proxy): keys, and writes of another process. */
  let core: Core;
  let workspaceId: string;
  let key: string;
  let stream: EventStreamClient;

  const call = <T>(method: string, route: string, options: CallOptions = {}) => callParley<T>(child.url, method, route, { key, ...options });
  const alive = () => child.process.exitCode === null && child.process.signalCode === null;
  const expectAlive = () => expect(alive(), `parley exited with ${child.process.exitCode}:\n${childErrors.slice(-3000)}`).toBe(true);
  /** Waits until a keyed route and the readiness probe both answer 200; how long that took, in ms. */
  const recovered = async (timeoutMs = RECOVERY_MS) => {
    const started = performance.now();
    await until(
      async () => [(await call('GET', '/agents')).status, (await call('GET', '/readyz')).status],
      (statuses) => statuses.every((status) => status === 200),
      timeoutMs,
    );
    return performance.now() - started;
  };
  /** A text datasource added through the API is ingested by the child's workers, and the stream opened at the start hears of it. */
  const stillIngestsAndStreams = async (name: string) => {
    const datastoreId = (await call<DatastoreBody>('POST', '/datastores', { body: { name } })).body.id;
    const created = await call<DatasourceBody>('POST', '/datasources', {
      body: { type: 'text', datastoreId, name, text: `${name}: the lighthouse keeper logs every ship.` },
    });
    expect(created.status).toBe(200);
    expect(await waitForDatasource({ call }, key, created.body.id, { timeoutMs: 30_000 })).toMatchObject({ status: 'synched', error: null });
    await until(
      () => stream.events.items.filter((event) => event.type === 'datasource.synched').map((event) => event.envelope.data.datasourceId),
      (synched) => synched.includes(created.body.id),
      10_000,
    );
  };
  /**
   * An event another process commits reaches the stream well before the 30 s poll: the child's LISTEN
   * connection is back (the test's own process writes it, so only NOTIFY can tell the child).
   */
  const hearsOtherProcesses = async () => {
    const { conversation } = await core.services.conversations.intake.start(workspaceId, { agentId: null, channel: 'api' });
    await until(
      () => stream.events.items.filter((event) => event.type === 'conversation.created').map((event) => event.envelope.data.conversationId),
      (created) => created.includes(conversation.id),
      15_000,
    );
  };

  beforeAll(async () => {
    scratch = await createScratchStore('postgres');
    proxy = await TcpProxy.inFrontOf(scratch.env.PARLEY_DATABASE_URL!);
    child = await startServeProcess(
      {
        ...scratch.env,
        PARLEY_DATABASE_URL: proxy.proxied(scratch.env.PARLEY_DATABASE_URL!),
        PARLEY_EMBEDDINGS_URL: await embeddings.start(),
        PARLEY_EMBEDDINGS_MODEL: 'fake-embed',
      },
      { withWorkers: true },
    );
    child.process.stderr?.on('data', (chunk: Buffer) => (childErrors += chunk.toString()));
    core = await openCore(loadConfig({ ...scratch.env, PARLEY_LOG_LEVEL: 'silent' }));
    const { workspace } = await core.services.workspaces.findOrCreate('outage');
    workspaceId = workspace.id;
    key = (await core.services.keys.issue(workspace.id)).secret;
    stream = await EventStreamClient.open(child.url, { key });
  }, 180_000);

  afterAll(async () => {
    stream?.close();
    await child?.stop();
    await core?.close();
    await proxy?.close();
    await embeddings.stop();
    await scratch?.drop();
  });

  it('stays up through pg_terminate_backend of all its connections under traffic, and answers, ingests and streams right after', async () => {
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    let terminated = 0;
    try {
      const outcomes = await underTraffic(call, async () => {
        for (let round = 0; round < 5; round += 1) {
          await sleep(400);
          // The test's own store loses its connections too: it is Parley's store as well, and must ride it out.
          const { rowCount } = await admin.query(
            'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
            [new URL(scratch.env.PARLEY_DATABASE_URL!).pathname.slice(1)],
          );
          terminated += rowCount ?? 0;
        }
      });
      expectAlive();
      expect(terminated).toBeGreaterThan(5);
      expect(
        Object.keys(outcomes).filter((outcome) => !ACCEPTABLE.has(outcome)),
        JSON.stringify(outcomes),
      ).toEqual([]);
      expect(outcomes['200']).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    await recovered();
    expectAlive();
    await stillIngestsAndStreams('after terminations');
    await hearsOtherProcesses();
  }, 120_000);

  it('stays up when the network resets its connections mid-traffic, and answers right after', async () => {
    let reset = 0;
    const outcomes = await underTraffic(call, async () => {
      for (let round = 0; round < 4; round += 1) {
        await sleep(400);
        reset += proxy.reset();
      }
    });
    expectAlive();
    expect(reset).toBeGreaterThan(4);
    expect(
      Object.keys(outcomes).filter((outcome) => !ACCEPTABLE.has(outcome)),
      JSON.stringify(outcomes),
    ).toEqual([]);
    await recovered();
    await stillIngestsAndStreams('after resets');
    await hearsOtherProcesses();
  }, 120_000);

  it('answers 503 UNAVAILABLE and not ready while the database is gone, then recovers without a restart', async () => {
    const pid = child.pid;
    await proxy.close();
    try {
      const asked = performance.now();
      const ready = await call<ErrorBody>('GET', '/readyz');
      expect(performance.now() - asked).toBeLessThan(3_000);
      expect(ready.status).toBe(503);
      expect(ready.body.error).toBe('UNAVAILABLE');
      for (const [method, route, body] of [
        ['GET', '/agents'],
        ['POST', '/datastores', { name: 'while gone' }],
      ] as const) {
        const response = await call<ErrorBody>(method, route, { body });
        expect(response.status, `${method} ${route}`).toBe(503);
        expect(response.body).toEqual({ error: 'UNAVAILABLE', message: expect.any(String), requestId: expect.any(String) });
        // What the driver said (refused address, port, socket error) stays in the log.
        expect(response.body.message).not.toMatch(/ECONN|127\.0\.0\.1|\d{4,}|terminated|pg|postgres|at /i);
      }
      // A process started meanwhile says why it cannot, with what the driver said, and exits.
      const starting = await runCli(['migrate'], { ...scratch.env, PARLEY_DATABASE_URL: proxy.proxied(scratch.env.PARLEY_DATABASE_URL!) });
      expect(starting.code).toBe(1);
      expect(starting.stderr.trim()).toBe(`parley: The database cannot be reached; try again shortly (connect ECONNREFUSED 127.0.0.1:${proxy.port})`);
      // Gone a few seconds in all: the workers' polls and the stream's LISTEN connection keep failing meanwhile.
      await sleep(2_000);
      expectAlive();
    } finally {
      await proxy.open();
    }
    await recovered();
    expect(child.pid).toBe(pid);
    expectAlive();
    await stillIngestsAndStreams('after the outage');
    await hearsOtherProcesses();
  }, 120_000);
});
