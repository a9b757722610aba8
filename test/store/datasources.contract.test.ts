import { describe, expect, it, vi } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import type { NewJob } from '../../src/store/store.js';
import {
  at,
  chunk,
  createDatastore,
  datasourceRecord,
  indexed,
  indexedDatasource,
  jobRecord,
  outboxEvent,
  twoWorkspaces,
  unit,
  useScratchStore,
} from '../support/store-contract.js';
import { STORE_KINDS } from '../support/stores.js';

const page = { offset: 0, limit: 100 };

describe.each(STORE_KINDS)('the datasources port of the %s store', (kind) => {
  const store = useScratchStore(kind);

  /** A datasource of a new datastore of `workspaceId`, created with its job. */
  async function createDatasource(workspaceId: string, overrides: Parameters<typeof datasourceRecord>[2] = {}) {
    const datastoreId = overrides.datastoreId ?? (await createDatastore(store(), workspaceId)).id;
    const datasource = datasourceRecord(workspaceId, datastoreId, overrides);
    const job = jobRecord({ workspaceId, kind: 'contract-ingest', payload: { datasourceId: datasource.id, generation: 1 } });
    await store().datasources.create(datasource, job);
    return { datasource, job };
  }

  const eventsOf = async (workspaceId: string) => (await store().outbox.list({ workspaceId })).map((event) => event.id);
  const chunkTexts = async (workspaceId: string, id: string) =>
    (await store().datasources.listChunks(workspaceId, id, page)).map((found) => found.text);

  describe('creating and reading', () => {
    it('creates the datasource together with the job that will process it', async () => {
      const [a] = await twoWorkspaces(store());
      const { datasource, job } = await createDatasource(a.id, {
        type: 'web_page',
        customId: 'faq',
        config: { source_url: 'https://example.com/faq' },
        sizeBytes: 12_345_678_901,
      });
      expect(await store().datasources.find(a.id, datasource.id)).toEqual(datasource);
      expect(await store().jobs.find(job.id)).toMatchObject({ kind: 'contract-ingest', workspaceId: a.id, status: 'queued', payload: job.payload });
    });

    it('writes neither the datasource nor its job when one of them cannot be written', async () => {
      const [a] = await twoWorkspaces(store());
      const { job: taken } = await createDatasource(a.id);
      const datastore = await createDatastore(store(), a.id);
      const datasource = datasourceRecord(a.id, datastore.id);
      await expect(store().datasources.create(datasource, { ...jobRecord(), id: taken.id })).rejects.toThrow();
      expect(await store().datasources.ownerOf(datasource.id)).toBeUndefined();
    });

    it('reads a datasource only in its own workspace, and tells another workspace’s datasource from none', async () => {
      const [a, b] = await twoWorkspaces(store());
      const { datasource } = await createDatasource(a.id);
      expect(await store().datasources.find(b.id, datasource.id)).toBeUndefined();
      expect(await store().datasources.list(b.id)).toEqual([]);
      expect(await store().datasources.listByDatastore(b.id, datasource.datastoreId)).toEqual([]);
      expect(await store().datasources.ownerOf(datasource.id)).toBe(a.id);
      expect(await store().datasources.ownerOf(newId())).toBeUndefined();
    });

    it('lists newest first, the whole workspace or one datastore', async () => {
      const [a] = await twoWorkspaces(store());
      const datastore = await createDatastore(store(), a.id);
      const other = await createDatastore(store(), a.id);
      const { datasource: middle } = await createDatasource(a.id, { datastoreId: datastore.id, createdAt: at(10) });
      const { datasource: newest } = await createDatasource(a.id, { datastoreId: other.id, createdAt: at(20) });
      const { datasource: oldest } = await createDatasource(a.id, { datastoreId: datastore.id, createdAt: at(1) });
      expect(await store().datasources.list(a.id)).toEqual([newest, middle, oldest]);
      expect(await store().datasources.listByDatastore(a.id, datastore.id)).toEqual([middle, oldest]);
    });
  });

  describe('queueing and progress', () => {
    it('moves an unsynched datasource to pending once its job is queued, and no other', async () => {
      const [a] = await twoWorkspaces(store());
      const { datasource: unsynched } = await createDatasource(a.id, { status: 'unsynched' });
      const { datasource: running } = await createDatasource(a.id, { status: 'running' });
      await store().datasources.markQueued(unsynched.workspaceId, unsynched.id);
      await store().datasources.markQueued(running.workspaceId, running.id);
      expect((await store().datasources.find(a.id, unsynched.id))?.status).toBe('pending');
      expect((await store().datasources.find(a.id, running.id))?.status).toBe('running');
    });

    it('starts a new generation on requeue: pending, no progress, no error, and a job for that generation', async () => {
      const [a] = await twoWorkspaces(store());
      const { datasource } = await createDatasource(a.id, { status: 'error', error: 'fetch failed', progress: 0.4 });
      let job: NewJob | undefined;
      const requeued = await store().datasources.requeue(a.id, datasource.id, (generation) => {
        job = jobRecord({ workspaceId: a.id, payload: { datasourceId: datasource.id, generation } });
        return job;
      });
      expect(requeued).toMatchObject({ generation: 2, status: 'pending', progress: 0, error: null });
      expect(await store().datasources.find(a.id, datasource.id)).toEqual(requeued);
      expect(await store().jobs.find(job!.id)).toMatchObject({ status: 'queued', payload: { generation: 2 } });
    });

    it('does not requeue another workspace’s datasource, nor queue a job for it', async () => {
      const [a, b] = await twoWorkspaces(store());
      const { datasource } = await createDatasource(a.id);
      const makeJob = vi.fn((generation: number) => jobRecord({ payload: { generation } }));
      expect(await store().datasources.requeue(b.id, datasource.id, makeJob)).toBeUndefined();
      expect(makeJob).not.toHaveBeenCalled();
      expect(await store().datasources.find(a.id, datasource.id)).toEqual(datasource);
    });

    it('records progress of the current generation, keeping the fields not reported', async () => {
      const [a] = await twoWorkspaces(store());
      const { datasource } = await createDatasource(a.id, { customId: 'kept', config: { source_url: 'https://example.com' } });
      const applied = await store().datasources.report(datasource.workspaceId, datasource.id, 1, {
        status: 'running',
        progress: 0.5,
        config: { source_url: 'https://example.com', kind: 'html' },
        fileKey: datasource.id,
        mimeType: 'text/html',
        sizeBytes: 2048,
      });
      expect(applied).toBe(true);
      expect(await store().datasources.find(a.id, datasource.id)).toMatchObject({
        status: 'running',
        progress: 0.5,
        customId: 'kept',
        config: { source_url: 'https://example.com', kind: 'html' },
        fileKey: datasource.id,
        mimeType: 'text/html',
        sizeBytes: 2048,
        generation: 1,
      });
      expect(await store().datasources.report(datasource.workspaceId, datasource.id, 1, { error: 'slow' })).toBe(true);
      expect(await store().datasources.find(a.id, datasource.id)).toMatchObject({ status: 'running', progress: 0.5, error: 'slow' });
    });

    it('ignores a report of a stale generation or a deleted datasource, and writes its event only when it applied', async () => {
      const [a] = await twoWorkspaces(store());
      const { datasource } = await createDatasource(a.id);
      await store().datasources.requeue(a.id, datasource.id, () => jobRecord());
      const before = await store().datasources.find(a.id, datasource.id);
      const stale = outboxEvent(a.id, { type: 'datasource.error' });
      expect(await store().datasources.report(datasource.workspaceId, datasource.id, 1, { status: 'error', error: 'old run' }, stale)).toBe(false);
      expect(await store().datasources.find(a.id, datasource.id)).toEqual(before);
      const current = outboxEvent(a.id, { type: 'datasource.error' });
      expect(await store().datasources.report(datasource.workspaceId, datasource.id, 2, { status: 'error', error: 'new run' }, current)).toBe(true);
      expect(await eventsOf(a.id)).toEqual([current.id]);

      await store().datasources.delete(a.id, datasource.id);
      expect(await store().datasources.report(datasource.workspaceId, datasource.id, 2, { progress: 0.9 }, outboxEvent(a.id))).toBe(false);
      expect(await eventsOf(a.id)).toEqual([current.id]);
    });
  });

  describe('config', () => {
    it('merges the config keys a report carries into the stored ones, for the current generation only', async () => {
      const [a] = await twoWorkspaces(store());
      const { datasource } = await createDatasource(a.id, { config: { source_url: 'https://example.com', refreshInterval: 'daily' } });
      expect(await store().datasources.report(a.id, datasource.id, 1, { progress: 0.1, config: { etag: '"v1"' } })).toBe(true);
      expect(await store().datasources.report(a.id, datasource.id, 2, { config: { etag: '"stale"' } })).toBe(false);
      expect((await store().datasources.find(a.id, datasource.id))?.config).toEqual({
        source_url: 'https://example.com',
        refreshInterval: 'daily',
        etag: '"v1"',
      });
    });

    it('changes the config through a function of the stored one, which may leave it; never another workspace’s', async () => {
      const [a, b] = await twoWorkspaces(store());
      const { datasource } = await createDatasource(a.id, { config: { source_url: 'https://example.com' } });
      const changed = await store().datasources.changeConfig(a.id, datasource.id, (config) => ({ ...config, refreshInterval: 'weekly' }));
      expect(changed?.config).toEqual({ source_url: 'https://example.com', refreshInterval: 'weekly' });
      expect(await store().datasources.changeConfig(a.id, datasource.id, () => undefined)).toBeUndefined();
      const foreign = vi.fn(() => ({ refreshInterval: 'daily' }));
      expect(await store().datasources.changeConfig(b.id, datasource.id, foreign)).toBeUndefined();
      expect(foreign).not.toHaveBeenCalled();
      expect((await store().datasources.find(a.id, datasource.id))?.config).toEqual(changed?.config);
    });

    it('lets one of two concurrent compare-and-set changes win', async () => {
      const [a] = await twoWorkspaces(store());
      const { datasource } = await createDatasource(a.id, { config: { nextRefreshAt: 'due-1' } });
      const advance = () =>
        store().datasources.changeConfig(a.id, datasource.id, (config) =>
          config.nextRefreshAt === 'due-1' ? { ...config, nextRefreshAt: 'due-2' } : undefined,
        );
      const outcomes = await Promise.all([advance(), advance(), advance()]);
      expect(outcomes.filter((outcome) => outcome !== undefined)).toHaveLength(1);
    });
  });

  describe('writing the index', () => {
    it('writes the chunks and marks the datasource synched with what was indexed, and its event with it', async () => {
      const [a] = await twoWorkspaces(store());
      const { datasource } = await createDatasource(a.id, { customId: 'manual-7', status: 'running', error: 'retrying', progress: 0.3 });
      const event = outboxEvent(a.id, { type: 'datasource.synched' });
      const content = indexed([chunk(0, 'first part'), chunk(1, 'second part')], { textSize: 21, totalPages: 3, event });
      expect(await store().datasources.writeIndex(datasource.workspaceId, datasource.id, 1, content)).toBe('written');
      const synched = await store().datasources.find(a.id, datasource.id);
      expect(synched).toMatchObject({ status: 'synched', progress: 1, error: null, nbChunks: 2, textSize: 21, totalPages: 3 });
      expect(synched?.lastSynch).toEqual(expect.any(String));
      expect(await store().datasources.listChunks(a.id, datasource.id, page)).toEqual([
        {
          id: expect.any(String),
          datasourceId: datasource.id,
          ordinal: 0,
          text: 'first part',
          source: 'source 0',
          pageNumber: null,
          tokens: 2,
          customId: 'manual-7',
        },
        {
          id: expect.any(String),
          datasourceId: datasource.id,
          ordinal: 1,
          text: 'second part',
          source: 'source 1',
          pageNumber: null,
          tokens: 2,
          customId: 'manual-7',
        },
      ]);
      expect(await eventsOf(a.id)).toEqual([event.id]);
    });

    it('replaces the previous generation’s chunks entirely, none of the old set left', async () => {
      const [a] = await twoWorkspaces(store());
      const datasource = await indexedDatasource(store(), a.id, [chunk(0, 'old one'), chunk(1, 'old two'), chunk(2, 'old three')]);
      const oldIds = (await store().datasources.listChunks(a.id, datasource.id, page)).map((found) => found.id);
      await store().datasources.requeue(a.id, datasource.id, () => jobRecord());
      expect(await store().datasources.writeIndex(datasource.workspaceId, datasource.id, 2, indexed([chunk(0, 'new one')]))).toBe('written');
      const chunks = await store().datasources.listChunks(a.id, datasource.id, page);
      expect(chunks.map((found) => found.text)).toEqual(['new one']);
      expect(oldIds).not.toContain(chunks[0]?.id);
      expect(await store().datasources.find(a.id, datasource.id)).toMatchObject({ generation: 2, status: 'synched', nbChunks: 1 });
    });

    it('answers "superseded" for a stale generation or a deleted datasource, and writes nothing', async () => {
      const [a] = await twoWorkspaces(store());
      const datasource = await indexedDatasource(store(), a.id, [chunk(0, 'current')]);
      await store().datasources.requeue(a.id, datasource.id, () => jobRecord());
      const event = outboxEvent(a.id);
      expect(await store().datasources.writeIndex(datasource.workspaceId, datasource.id, 1, indexed([chunk(0, 'stale')], { event }))).toBe(
        'superseded',
      );
      expect(await chunkTexts(a.id, datasource.id)).toEqual(['current']);
      expect((await store().datasources.find(a.id, datasource.id))?.status).toBe('pending');

      await store().datasources.delete(a.id, datasource.id);
      expect(await store().datasources.writeIndex(datasource.workspaceId, datasource.id, 2, indexed([chunk(0, 'late')], { event }))).toBe(
        'superseded',
      );
      expect(await eventsOf(a.id)).toEqual([]);
    });

    it('answers "model-mismatch" for vectors of another model than the datastore’s, and writes nothing', async () => {
      const [a] = await twoWorkspaces(store());
      const first = await indexedDatasource(store(), a.id, [chunk(0, 'model one')]);
      const { datasource: second } = await createDatasource(a.id, { datastoreId: first.datastoreId, status: 'running' });
      const event = outboxEvent(a.id);
      const content = indexed([chunk(0, 'model two')], { embeddingModel: 'another-model', embeddingDimensions: 8, event });
      expect(await store().datasources.writeIndex(second.workspaceId, second.id, 1, content)).toBe('model-mismatch');
      expect(await chunkTexts(a.id, second.id)).toEqual([]);
      expect((await store().datasources.find(a.id, second.id))?.status).toBe('running');
      expect(await store().datastores.find(a.id, first.datastoreId)).toMatchObject({ embeddingModel: 'contract-embed', embeddingDimensions: 4 });
      expect(await eventsOf(a.id)).toEqual([]);
    });

    it('never marks the new generation synched with the old one’s content when a write races a re-sync', async () => {
      const [a] = await twoWorkspaces(store());
      const { datasource } = await createDatasource(a.id, { status: 'running' });
      const [outcome, requeued] = await Promise.all([
        store().datasources.writeIndex(datasource.workspaceId, datasource.id, 1, indexed([chunk(0, 'generation one')])),
        store().datasources.requeue(a.id, datasource.id, () => jobRecord()),
      ]);
      expect(requeued?.generation).toBe(2);
      expect(['written', 'superseded']).toContain(outcome);
      expect(await store().datasources.find(a.id, datasource.id)).toMatchObject({ generation: 2, status: 'pending' });
      expect(await store().datasources.writeIndex(datasource.workspaceId, datasource.id, 2, indexed([chunk(0, 'generation two')]))).toBe('written');
      expect(await chunkTexts(a.id, datasource.id)).toEqual(['generation two']);
    });

    it('leaves the old set, the status and the datastore’s model as they were when a write fails midway', async () => {
      const [a] = await twoWorkspaces(store());
      const { datasource } = await createDatasource(a.id, { status: 'running' });
      // Two chunks of one ordinal cannot both be stored: the write fails after some rows went in.
      const broken = indexed([chunk(0, 'a'), chunk(1, 'b'), chunk(1, 'b again')], { event: outboxEvent(a.id) });
      await expect(store().datasources.writeIndex(datasource.workspaceId, datasource.id, 1, broken)).rejects.toThrow();
      expect(await chunkTexts(a.id, datasource.id)).toEqual([]);
      expect((await store().datasources.find(a.id, datasource.id))?.status).toBe('running');
      expect(await store().datastores.find(a.id, datasource.datastoreId)).toMatchObject({ embeddingModel: null });

      expect(await store().datasources.writeIndex(datasource.workspaceId, datasource.id, 1, indexed([chunk(0, 'good')]))).toBe('written');
      await store().datasources.requeue(a.id, datasource.id, () => jobRecord());
      await expect(store().datasources.writeIndex(datasource.workspaceId, datasource.id, 2, broken)).rejects.toThrow();
      expect(await chunkTexts(a.id, datasource.id)).toEqual(['good']);
      expect(await eventsOf(a.id)).toEqual([]);
    });
  });

  describe('chunks, sizes and models', () => {
    it('pages through the chunks in document order, whatever order they were written in', async () => {
      const [a, b] = await twoWorkspaces(store());
      const texts = ['zero', 'one', 'two', 'three', 'four'];
      const datasource = await indexedDatasource(
        store(),
        a.id,
        [3, 0, 4, 1, 2].map((ordinal) => chunk(ordinal, texts[ordinal]!)),
      );
      expect(await chunkTexts(a.id, datasource.id)).toEqual(texts);
      const second = await store().datasources.listChunks(a.id, datasource.id, { offset: 2, limit: 2 });
      expect(second.map((found) => found.ordinal)).toEqual([2, 3]);
      expect(await store().datasources.listChunks(a.id, datasource.id, { offset: 5, limit: 2 })).toEqual([]);
      expect(await store().datasources.listChunks(b.id, datasource.id, page)).toEqual([]);
    });

    it('counts the indexed text of the workspace’s synched datasources only', async () => {
      const [a, b] = await twoWorkspaces(store());
      expect(await store().datasources.storedTextSize(a.id)).toBe(0);
      const one = await indexedDatasource(store(), a.id, [chunk(0, '12345')]);
      const two = await indexedDatasource(store(), a.id, [chunk(0, '1234567')]);
      await indexedDatasource(store(), b.id, [chunk(0, 'elsewhere')]);
      await createDatasource(a.id, { status: 'running', textSize: 1000 });
      expect(await store().datasources.storedTextSize(a.id)).toBe(12);
      await store().datasources.requeue(a.id, one.id, () => jobRecord());
      expect(await store().datasources.storedTextSize(a.id)).toBe(7);
      await store().datasources.delete(a.id, two.id);
      expect(await store().datasources.storedTextSize(a.id)).toBe(0);
    });

    it('lists the datasources whose datastore was indexed with another model, in every workspace', async () => {
      const [a, b] = await twoWorkspaces(store());
      const oldModel = `old-model-${newId()}`;
      const stale = await indexedDatasource(store(), a.id, []);
      await store().datastores.resetEmbeddingModel(stale.workspaceId, stale.datastoreId);
      await store().datasources.requeue(a.id, stale.id, () => jobRecord());
      await store().datasources.writeIndex(stale.workspaceId, stale.id, 2, indexed([chunk(0, 'x')], { embeddingModel: oldModel }));
      const staleInB = await indexedDatasource(store(), b.id, []);
      await store().datastores.resetEmbeddingModel(staleInB.workspaceId, staleInB.datastoreId);
      await store().datasources.requeue(b.id, staleInB.id, () => jobRecord());
      await store().datasources.writeIndex(staleInB.workspaceId, staleInB.id, 2, indexed([chunk(0, 'y')], { embeddingModel: oldModel }));
      const current = await indexedDatasource(store(), a.id, [chunk(0, 'z')]);
      const { datasource: neverIndexed } = await createDatasource(a.id);

      const listed = (await store().datasources.listEmbeddedWithOtherModel('contract-embed')).map((found) => found.id);
      expect(listed).toEqual(expect.arrayContaining([stale.id, staleInB.id]));
      expect(listed).not.toContain(current.id);
      expect(listed).not.toContain(neverIndexed.id);
      expect((await store().datasources.listEmbeddedWithOtherModel(oldModel)).map((found) => found.id)).toContain(current.id);
    });
  });

  describe('deleting', () => {
    it('deletes a datasource with its chunks and answers with what it deleted', async () => {
      const [a] = await twoWorkspaces(store());
      const datasource = await indexedDatasource(store(), a.id, [chunk(0, 'bye', unit(0, 1, 0, 0))]);
      expect(await store().datasources.delete(a.id, datasource.id)).toEqual(datasource);
      expect(await store().datasources.ownerOf(datasource.id)).toBeUndefined();
      expect(await chunkTexts(a.id, datasource.id)).toEqual([]);
      expect(await store().datasources.delete(a.id, datasource.id)).toBeUndefined();
    });

    it('does not delete another workspace’s datasource', async () => {
      const [a, b] = await twoWorkspaces(store());
      const datasource = await indexedDatasource(store(), a.id, [chunk(0, 'mine')]);
      expect(await store().datasources.delete(b.id, datasource.id)).toBeUndefined();
      expect(await store().datasources.find(a.id, datasource.id)).toEqual(datasource);
      expect(await chunkTexts(a.id, datasource.id)).toEqual(['mine']);
    });
  });

  describe('content keys (duplicates)', () => {
    it('finds a datastore’s datasources by content key and by name, oldest first, and only in that workspace and datastore', async () => {
      const [a, b] = await twoWorkspaces(store());
      const { datasource: older } = await createDatasource(a.id, { contentKey: 'sha256:aa', name: 'hours.txt', createdAt: at(1) });
      const datastoreId = older.datastoreId;
      const { datasource: newer } = await createDatasource(a.id, { datastoreId, contentKey: 'sha256:aa', name: 'copy.txt', createdAt: at(2) });
      await createDatasource(a.id, { contentKey: 'sha256:aa', name: 'hours.txt' });
      const theirs = await createDatastore(store(), b.id);
      await createDatasource(b.id, { datastoreId: theirs.id, contentKey: 'sha256:aa', name: 'hours.txt' });
      const ids = (records: readonly { id: string }[]) => records.map((record) => record.id);
      expect(ids(await store().datasources.findByContentKey(a.id, datastoreId, 'sha256:aa'))).toEqual([older.id, newer.id]);
      expect(ids(await store().datasources.findByName(a.id, datastoreId, 'hours.txt', ['text']))).toEqual([older.id]);
      expect(await store().datasources.findByName(a.id, datastoreId, 'hours.txt', ['file'])).toEqual([]);
      // Another workspace asking about this datastore finds nothing, and the other way round.
      expect(await store().datasources.findByContentKey(b.id, datastoreId, 'sha256:aa')).toEqual([]);
      expect(ids(await store().datasources.findByContentKey(b.id, theirs.id, 'sha256:aa'))).toHaveLength(1);
    });

    it('replaces what a datasource is made of with a new generation and its job, in its own workspace only', async () => {
      const [a, b] = await twoWorkspaces(store());
      const { datasource } = await createDatasource(a.id, { status: 'synched', progress: 1, contentKey: 'sha256:old', fileKey: 'blob-old' });
      const content = {
        name: 'v2.txt',
        config: { kind: 'txt' },
        fileKey: 'blob-new',
        mimeType: 'text/plain',
        sizeBytes: 42,
        contentKey: 'sha256:new',
      };
      const makeJob = vi.fn((generation: number) => jobRecord({ workspaceId: b.id, payload: { datasourceId: datasource.id, generation } }));
      expect(await store().datasources.replaceContent(b.id, datasource.id, content, makeJob)).toBeUndefined();
      expect(makeJob).not.toHaveBeenCalled();
      let job: NewJob | undefined;
      const replaced = await store().datasources.replaceContent(a.id, datasource.id, content, (generation) => {
        job = jobRecord({ workspaceId: a.id, payload: { datasourceId: datasource.id, generation } });
        return job;
      });
      expect(replaced).toMatchObject({ ...content, id: datasource.id, generation: 2, status: 'pending', progress: 0 });
      expect(await store().datasources.find(a.id, datasource.id)).toEqual(replaced);
      expect(await store().jobs.find(job!.id)).toMatchObject({ status: 'queued', payload: { generation: 2 } });
    });

    it('lists the datasources made before keys were kept, of the types asked, until each is keyed', async () => {
      const [a, b] = await twoWorkspaces(store());
      const { datasource: unkeyed } = await createDatasource(a.id, { type: 'file' });
      const datastoreId = unkeyed.datastoreId;
      await createDatasource(a.id, { datastoreId, type: 'text', contentKey: 'sha256:bb' });
      await createDatasource(a.id, { datastoreId, type: 'web_page' });
      expect((await store().datasources.listWithoutContentKey(a.id, datastoreId, ['file', 'text'])).map((d) => d.id)).toEqual([unkeyed.id]);
      await store().datasources.setContentKey(b.id, unkeyed.id, 'sha256:cc');
      expect(await store().datasources.listWithoutContentKey(a.id, datastoreId, ['file'])).toHaveLength(1);
      await store().datasources.setContentKey(a.id, unkeyed.id, 'sha256:cc');
      expect(await store().datasources.listWithoutContentKey(a.id, datastoreId, ['file'])).toEqual([]);
      expect(await store().datasources.find(a.id, unkeyed.id)).toMatchObject({ contentKey: 'sha256:cc' });
    });
  });
});
