import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { openStore } from '../../src/store/open-store.js';
import type { DatasourceRecord, Store } from '../../src/store/store.js';
import { chunk, datasourceRecord, indexed } from '../support/store-contract.js';
import { STORE_KINDS, createScratchStore, type ScratchStore } from '../support/stores.js';

const AT = '2026-01-01T00:00:00.000Z';

/** The port methods that workers and authentication call by id: another workspace's id must change nothing. */
describe.each(STORE_KINDS)("another workspace's id in the %s store", (kind) => {
  let scratch: ScratchStore;
  let store: Store;
  const a = newId();
  const b = newId();
  const datastoreId = newId();

  const content = (text: string) => indexed([chunk(0, text)], { embeddingModel: 'model-a' });

  /** A new unsynched datasource of workspace A, with its job. */
  async function datasourceOfA(): Promise<DatasourceRecord> {
    const datasource = datasourceRecord(a, datastoreId);
    await store.datasources.create(datasource, { id: newId(), kind: 'noop', workspaceId: a, payload: {}, maxAttempts: 1 });
    return datasource;
  }

  beforeAll(async () => {
    scratch = await createScratchStore(kind);
    store = await openStore(scratch.config, scratch.dataDir);
    await store.workspaces.create({ id: a, name: `a ${a}`, createdAt: AT });
    await store.workspaces.create({ id: b, name: `b ${b}`, createdAt: AT });
    await store.datastores.create({
      id: datastoreId,
      workspaceId: a,
      name: 'a',
      description: '',
      type: 'vector_a',
      visibility: 'private',
      embeddingModel: null,
      embeddingDimensions: null,
      vectorWeight: 1,
      keywordWeight: 1,
      vectorWindows: true,
      createdAt: AT,
      updatedAt: AT,
    });
  });
  afterAll(async () => {
    await store.close();
    await scratch.drop();
  });

  it('datasources.report: false, and the datasource and the outbox stay as they were', async () => {
    const { id } = await datasourceOfA();
    const before = await store.datasources.find(a, id);
    const event = { id: newId(), workspaceId: a, type: 'datasource.error', payload: { id } };
    expect(await store.datasources.report(b, id, 1, { status: 'error', progress: 0.5, error: 'from b' }, event)).toBe(false);
    expect(await store.datasources.find(a, id)).toEqual(before);
    expect((await store.outbox.list({ workspaceId: a })).map((pending) => pending.id)).not.toContain(event.id);

    expect(await store.datasources.report(a, id, 1, { progress: 0.5 })).toBe(true);
    expect((await store.datasources.find(a, id))?.progress).toBe(0.5);
  });

  it('datasources.generation: none', async () => {
    const { id } = await datasourceOfA();
    expect(await store.datasources.generation(b, id)).toBeUndefined();
    expect(await store.datasources.generation(a, id)).toBe(1);
  });

  it('datasources.markQueued: the datasource stays unsynched', async () => {
    const { id } = await datasourceOfA();
    await store.datasources.markQueued(b, id);
    expect((await store.datasources.find(a, id))?.status).toBe('unsynched');
    await store.datasources.markQueued(a, id);
    expect((await store.datasources.find(a, id))?.status).toBe('pending');
  });

  it('datasources.writeIndex: superseded, no chunks written, the datastore adopts no model', async () => {
    const { id } = await datasourceOfA();
    const before = await store.datasources.find(a, id);
    expect(await store.datasources.writeIndex(b, id, 1, content('from b'))).toBe('superseded');
    expect(await store.datasources.find(a, id)).toEqual(before);
    expect(await store.datasources.listChunks(a, id, { offset: 0, limit: 10 })).toEqual([]);
    expect((await store.datastores.find(a, datastoreId))?.embeddingModel).toBeNull();

    expect(await store.datasources.writeIndex(a, id, 1, content('from a'))).toBe('written');
    expect((await store.datasources.listChunks(a, id, { offset: 0, limit: 10 })).map((chunk) => chunk.text)).toEqual(['from a']);
  });

  it('datastores.resetEmbeddingModel: the datastore keeps its model', async () => {
    const { id } = await datasourceOfA();
    expect(await store.datasources.writeIndex(a, id, 1, content('indexed'))).toBe('written');
    await store.datastores.resetEmbeddingModel(b, datastoreId);
    expect((await store.datastores.find(a, datastoreId))?.embeddingModel).toBe('model-a');
    await store.datastores.resetEmbeddingModel(a, datastoreId);
    expect((await store.datastores.find(a, datastoreId))?.embeddingModel).toBeNull();
  });

  it('deliveries.find, recordAttempt and settle: none, and the delivery stays as it was', async () => {
    const delivery = {
      id: newId(),
      workspaceId: a,
      eventId: newId(),
      eventType: 'message.created',
      channel: 'email' as const,
      endpointId: null,
      recipients: ['admin@example.com'],
      replayOf: null,
      body: '{}',
      createdAt: AT,
    };
    expect(await store.deliveries.createWithJob(delivery, { id: newId(), kind: 'noop', workspaceId: a, payload: {}, maxAttempts: 1 })).toBe(true);
    const before = await store.deliveries.find(a, delivery.id);
    expect(before).toMatchObject({ status: 'pending', attemptCount: 0 });
    expect(await store.deliveries.find(b, delivery.id)).toBeUndefined();

    const attempt = { attempt: 1, startedAt: AT, durationMs: 5, statusCode: null, error: 'refused', responseExcerpt: null };
    await store.deliveries.recordAttempt(b, delivery.id, attempt, { status: 'failed', nextAttemptAt: null, at: AT });
    await store.deliveries.settle(b, delivery.id, { status: 'failed', nextAttemptAt: null, at: AT }, 'from b');
    expect(await store.deliveries.find(a, delivery.id)).toEqual(before);

    await store.deliveries.recordAttempt(a, delivery.id, attempt, { status: 'failed', nextAttemptAt: null, at: AT });
    expect(await store.deliveries.find(a, delivery.id)).toMatchObject({ status: 'failed', attemptCount: 1, attempts: [attempt] });
  });

  it('apiKeys.markUsed: the key keeps its last use', async () => {
    const key = { id: newId(), workspaceId: a, name: 'k', prefix: 'pk_live_k', createdAt: AT, lastUsedAt: null, createdBy: null };
    await store.apiKeys.create(key, `hash-${key.id}`);
    await store.apiKeys.markUsed(b, key.id, AT);
    expect((await store.apiKeys.find(a, key.id))?.lastUsedAt).toBeNull();
    await store.apiKeys.markUsed(a, key.id, AT);
    expect((await store.apiKeys.find(a, key.id))?.lastUsedAt).toBe(AT);
  });
});
