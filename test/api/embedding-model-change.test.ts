import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForDatasource } from '../support/datasources.js';
import { FakeEmbeddingsServer } from '../support/fake-embeddings-server.js';
import { startTestParley } from '../support/parley.js';
import { STORE_KINDS, createScratchStore } from '../support/stores.js';
import type { DatasourceBody, DatastoreBody, SearchHitBody } from '../support/bodies.js';

describe.each(STORE_KINDS)('changing the embedding model on %s', (kind) => {
  const server = new FakeEmbeddingsServer();
  let url = '';

  beforeAll(async () => {
    url = await server.start();
  });
  afterAll(() => server.stop());

  it('re-embeds existing datasources with the new model at the next start', async () => {
    const scratch = await createScratchStore(kind);
    try {
      const before = await startTestParley(kind, { scratch, workers: true });
      const ws = await before.newWorkspace();
      const datastoreId = (await before.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: {} })).body.id;
      const text = 'Our warehouse in Lyon ships orders within two working days.';
      const created = await before.call<DatasourceBody>('POST', '/datasources', { key: ws.key, body: { type: 'text', datastoreId, text } });
      const first = await waitForDatasource(before, ws.key, created.body.id);
      expect((await before.core.store.datastores.find(ws.id, datastoreId))?.embeddingModel).toMatch(/^local:/);
      await before.close();

      const env = { PARLEY_EMBEDDINGS_URL: url, PARLEY_EMBEDDINGS_MODEL: 'fake-embed', PARLEY_EMBEDDINGS_API_KEY: 'sk-fake' };
      const after = await startTestParley(kind, { scratch, workers: true, env });
      try {
        const resynced = await waitForDatasource(after, ws.key, created.body.id, {
          until: new Set(['error', 'synched']),
          timeoutMs: 60_000,
        });
        // The first poll may still see the old generation's "synched": wait for the new one.
        const deadline = Date.now() + 60_000;
        let record = resynced;
        while ((record.lastSynch === first.lastSynch || record.status !== 'synched') && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          record = (await after.call<DatasourceBody>('GET', `/datasources/${created.body.id}`, { key: ws.key })).body;
        }
        expect(record).toMatchObject({ status: 'synched', nbChunks: first.nbChunks });
        expect((await after.core.store.datastores.find(ws.id, datastoreId))?.embeddingModel).toBe('openai-compatible:fake-embed');
        const embedded = server.requests.flatMap((request) => request.body.input ?? []);
        expect(embedded.some((input) => input.includes('warehouse in Lyon'))).toBe(true);
        expect(server.requests.every((request) => request.headers.authorization === 'Bearer sk-fake')).toBe(true);
        const hits = await after.call<SearchHitBody[]>('POST', `/datastores/${datastoreId}/query`, {
          key: ws.key,
          body: { query: 'How fast are orders shipped?', mode: 'vector' },
        });
        expect(hits.body).toHaveLength(1);
      } finally {
        await after.close();
      }
    } finally {
      await scratch.drop();
    }
  }, 180_000);
});
