import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { EVENT_TYPES } from '../../src/contract/events.js';
import { DELIVER_WEBHOOK_JOB } from '../../src/events/delivery-plan.js';
import { INGEST_JOB } from '../../src/domain/ingestion/ingest-job.js';
import { openCore, type Core } from '../../src/parley.js';
import { eventOf, type AgentBody, type ConversationBody, type DatasourceBody, type DatastoreBody, type SearchHitBody } from '../support/bodies.js';
import { FIXTURES, uploadFile, waitForDatasource } from '../support/datasources.js';
import { EventStreamClient } from '../support/event-stream.js';
import { FakeEmbeddingsServer } from '../support/fake-embeddings-server.js';
import { callParley, type CallOptions } from '../support/parley.js';
import { STORE_KINDS, createScratchStore, type ScratchStore } from '../support/stores.js';
import { streamAnswer } from '../support/streamed-answer.js';
import { until } from '../support/until.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { startServeProcess, startWorkerProcess, type ServeProcess, type WorkerProcess } from '../support/worker-process.js';

const FILES = ['md-ibm-wiki.md', 'txt-war-and-peace-ch1.txt', 'csv-customers-comma.csv', 'pdf-memo-1p.pdf'];
const TEXTS = [
  'The lighthouse keeper logs every ship that passes the northern reef, and the harbour master reads the log each morning.',
  'Our bakery opens at six; sourdough is baked on Tuesdays and Fridays, rye every day except Sunday.',
  'Support tickets about invoices go to the billing team, who answer within one working day.',
];
const QUESTIONS = ['Where is IBM headquartered?', 'When is sourdough baked?', 'Who reads the lighthouse log?', 'Who answers invoice tickets?'];

/** How often each id occurs in `ids`. */
const countsOf = (ids: readonly string[]) => ids.reduce((counts, id) => counts.set(id, (counts.get(id) ?? 0) + 1), new Map<string, number>());

describe.runIf(STORE_KINDS.includes('postgres'))('2 × parley serve + 2 × parley worker on one PostgreSQL', () => {
  let scratch: ScratchStore;
  let core: Core;
  const embeddings = new FakeEmbeddingsServer();
  let receiver: WebhookReceiver;
  const processes: WorkerProcess[] = [];
  let serves: ServeProcess[];
  const streams: EventStreamClient[] = [];

  beforeAll(async () => {
    scratch = await createScratchStore('postgres');
    const env = {
      ...scratch.env,
      PARLEY_EMBEDDINGS_URL: await embeddings.start(),
      PARLEY_EMBEDDINGS_MODEL: 'fake-embed',
      PARLEY_WORKER_CONCURRENCY: '2',
      // One address for all, as behind the load balancer of a deployment: links (and a search hit's source) name it.
      PARLEY_PUBLIC_URL: 'https://chat.example.com',
    };
    receiver = await WebhookReceiver.start();
    // All four on an empty database at once, as a deployment starts them: they migrate it under one lock.
    const started = await Promise.allSettled([startServeProcess(env), startServeProcess(env), startWorkerProcess(env), startWorkerProcess(env)]);
    for (const result of started) if (result.status === 'fulfilled') processes.push(result.value);
    const failed = started.find((result) => result.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    serves = started.slice(0, 2).map((result) => (result as PromiseFulfilledResult<ServeProcess>).value);
    // The test's own view of the database: a key to call with, and the rows to check.
    core = await openCore(loadConfig({ ...env, PARLEY_LOG_LEVEL: 'silent' }));
  }, 180_000);

  afterAll(async () => {
    for (const stream of streams) stream.close();
    await Promise.all(processes.map((child) => child.stop()));
    await receiver?.close();
    await core?.close();
    await embeddings.stop();
    await scratch?.drop();
  });

  it('serves every call through either process, runs each job once and delivers each event once, to webhooks and to streams on both', async () => {
    const { workspace } = await core.services.workspaces.findOrCreate('scale-out');
    const { secret: key } = await core.services.keys.issue(workspace.id);
    const apis = serves.map(({ url }) => ({
      url,
      call: <T>(method: string, route: string, options: CallOptions = {}) => callParley<T>(url, method, route, { key, ...options }),
    }));
    /** The two API processes in turn: call `n` goes to one, call `n + 1` to the other. */
    const via = (n: number) => apis[n % 2]!;

    const webhook = await via(0).call('POST', '/webhooks', { body: { url: receiver.url, events: [...EVENT_TYPES] } });
    expect(webhook.status).toBe(200);
    streams.push(...(await Promise.all(serves.map(({ url }) => EventStreamClient.open(url, { key })))));

    const datastoreId = (await via(1).call<DatastoreBody>('POST', '/datastores', { body: { name: 'Shared' } })).body.id;
    const agent = await via(0).call<AgentBody>('POST', '/agents', { body: { name: 'Helper', tools: [{ type: 'datastore', datastoreId }] } });
    expect(agent.status).toBe(200);

    const uploads = await Promise.all(
      FILES.map((file, n) => uploadFile<DatasourceBody>(via(n), { key, datastoreId, file: path.join(FIXTURES, file) })),
    );
    const texts = await Promise.all(
      TEXTS.map((text, n) =>
        via(FILES.length + n).call<DatasourceBody>('POST', '/datasources', { body: { type: 'text', datastoreId, name: `note ${n}`, text } }),
      ),
    );
    const datasourceIds = [...uploads, ...texts].map((created) => {
      expect(created.status).toBe(200);
      return created.body.id;
    });
    // Datasource `n` was created through via(n); it is followed through the other process.
    for (const [n, id] of datasourceIds.entries()) {
      expect(await waitForDatasource(via(n + 1), key, id, { timeoutMs: 60_000 })).toMatchObject({ status: 'synched', error: null });
    }

    const searches = await Promise.all(
      apis.map((api) =>
        api.call<SearchHitBody[]>('POST', `/datastores/${datastoreId}/query`, { body: { query: 'lighthouse log harbour master', topK: 5 } }),
      ),
    );
    expect(searches.map((search) => search.status)).toEqual([200, 200]);
    expect(searches[0]!.body.length).toBeGreaterThan(0);
    expect(searches[1]!.body).toEqual(searches[0]!.body);

    // A re-sync and a delete, each through the process that did not create the datasource.
    const [resynced, deleted] = [datasourceIds[0]!, datasourceIds.at(-1)!];
    const { nbChunks } = (await via(1).call<DatasourceBody>('GET', `/datasources/${resynced}`)).body;
    expect((await via(1).call('POST', `/datasources/${resynced}/resync`)).status).toBe(200);
    expect(await waitForDatasource(via(0), key, resynced, { timeoutMs: 60_000 })).toMatchObject({ status: 'synched', nbChunks });
    expect((await via(1).call('DELETE', `/datasources/${deleted}`)).status).toBe(200);
    for (const api of apis) {
      expect((await api.call('GET', `/datasources/${deleted}`)).status).toBe(404);
      const hits = await api.call<SearchHitBody[]>('POST', `/datastores/${datastoreId}/query`, { body: { query: TEXTS.at(-1), topK: 10 } });
      expect(hits.body.map((hit) => hit.datasource_id)).not.toContain(deleted);
    }

    const conversationIds: string[] = [];
    for (const [n, query] of QUESTIONS.entries()) {
      const streamed = await streamAnswer(`${via(n).url}/agents/${agent.body.id}/query`, key, { query });
      expect(streamed.status).toBe(200);
      expect(streamed.answer.length).toBeGreaterThan(0);
      expect(streamed.events.at(-1)?.data).toBe('[DONE]');
      conversationIds.push(streamed.final!.conversationId);
    }
    for (const [n, id] of conversationIds.entries()) {
      const status = n % 2 === 0 ? 'RESOLVED' : 'HUMAN_REQUESTED';
      expect((await via(n + 1).call('PATCH', `/conversations/${id}`, { body: { status } })).status).toBe(200);
      expect((await via(n).call<ConversationBody>('GET', `/conversations/${id}`)).body).toMatchObject({ status });
    }
    // The same change through both processes at once is one change: one event, not one per process.
    const reopened = conversationIds[0]!;
    expect((await via(0).call('PATCH', `/conversations/${reopened}`, { body: { status: 'UNRESOLVED' } })).status).toBe(200);
    const racing = await Promise.all(apis.map((api) => api.call('PATCH', `/conversations/${reopened}`, { body: { status: 'RESOLVED' } })));
    expect(racing.map((response) => response.status)).toEqual([200, 200]);

    // Everything that happened is in the outbox; once every event reached the receiver, wait a little for duplicates.
    const events = await until(
      async () => ({ events: await core.store.outbox.list({ workspaceId: workspace.id }), received: receiver.received.length }),
      ({ events, received }) => received >= events.length,
      60_000,
    ).then(({ events }) => events.sort((a, b) => a.seq - b.seq));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const eventIds = events.map((event) => event.id);
    const receivedIds = receiver.received.map((request) => eventOf(request.body).id);
    expect(receivedIds.length).toBe(eventIds.length);
    expect([...countsOf(receivedIds).entries()].filter(([, count]) => count > 1)).toEqual([]);
    expect(new Set(receivedIds)).toEqual(new Set(eventIds));

    const types = events.map((event) => event.type);
    // One datasource.synched per ingestion: each datasource once, the re-synced one twice.
    const synched = events.filter((event) => event.type === 'datasource.synched').map((event) => String(event.payload.datasourceId));
    expect(Object.fromEntries(countsOf(synched))).toEqual(Object.fromEntries(datasourceIds.map((id) => [id, id === resynced ? 2 : 1])));
    expect(types.filter((type) => type === 'conversation-resolved')).toHaveLength(3);
    expect(types.filter((type) => type === 'human-requested')).toHaveLength(2);

    // No job ran twice: each was claimed once and finished; one delivery per event, sent in one attempt.
    const jobs = await core.store.jobs.list({});
    expect(jobs.filter((job) => job.status !== 'done' || job.attempts !== 1)).toEqual([]);
    expect(jobs.filter((job) => job.kind === INGEST_JOB)).toHaveLength(datasourceIds.length + 1);
    expect(jobs.filter((job) => job.kind === DELIVER_WEBHOOK_JOB)).toHaveLength(eventIds.length);
    const deliveries = await core.store.deliveries.list(workspace.id, { limit: 1000 });
    expect(deliveries).toHaveLength(eventIds.length);
    expect(deliveries.filter((delivery) => delivery.status !== 'succeeded' || delivery.attemptCount !== 1 || delivery.attempts.length !== 1)).toEqual(
      [],
    );
    for (const id of datasourceIds.filter((id) => id !== deleted)) {
      const chunks = await core.store.datasources.listChunks(workspace.id, id, { offset: 0, limit: 1000 });
      expect(chunks.map((chunk) => chunk.ordinal)).toEqual([...chunks.keys()]);
    }

    // A stream on each process saw every event once, in commit order, whichever process or worker wrote it.
    for (const stream of streams) {
      await stream.events.waitFor(eventIds.length, 20_000);
      expect(stream.events.items.map((event) => event.id)).toEqual(eventIds);
    }
    // A client cut off from one process and reconnected to the other (a load balancer's choice) resumes in place.
    const middle = Math.floor(eventIds.length / 2);
    for (const { url } of serves) {
      const resumed = await EventStreamClient.open(url, { key, lastEventId: eventIds[middle - 1] });
      streams.push(resumed);
      expect(resumed.resumed).toBe(true);
      expect((await resumed.events.waitFor(eventIds.length - middle, 20_000)).map((event) => event.id)).toEqual(eventIds.slice(middle));
    }
  }, 240_000);
});
