import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForDatasource } from '../support/datasources.js';
import { FakeEmbeddingsServer } from '../support/fake-embeddings-server.js';
import { startTestParley } from '../support/parley.js';
import type { DatasourceBody, DatastoreBody, SearchHitBody } from '../support/bodies.js';

describe('query vectors of repeated questions', () => {
  const server = new FakeEmbeddingsServer();
  let url = '';

  beforeAll(async () => {
    url = await server.start();
  });
  afterAll(() => server.stop());

  /** Embedding requests whose input is exactly `query`: one per model call for it. */
  const callsFor = (query: string) => server.requests.filter((request) => request.body.input.length === 1 && request.body.input[0] === query).length;

  async function askTwice(cacheSize: string, query: string): Promise<number> {
    const parley = await startTestParley('sqlite', {
      workers: true,
      env: { PARLEY_EMBEDDINGS_URL: url, PARLEY_EMBEDDINGS_MODEL: 'fake-embed', PARLEY_QUERY_CACHE_SIZE: cacheSize },
    });
    try {
      const ws = await parley.newWorkspace();
      const datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: {} })).body.id;
      const text = 'Our warehouse in Lyon ships orders within two working days.';
      const created = await parley.call<DatasourceBody>('POST', '/datasources', { key: ws.key, body: { type: 'text', datastoreId, text } });
      await waitForDatasource(parley, ws.key, created.body.id);
      const ask = (mode: string) => parley.call<SearchHitBody[]>('POST', `/datastores/${datastoreId}/query`, { key: ws.key, body: { query, mode } });
      const first = await ask('vector');
      const second = await ask('hybrid');
      expect(first.body).toHaveLength(1);
      expect(second.body[0]!.chunk_id).toBe(first.body[0]!.chunk_id);
      return callsFor(query);
    } finally {
      await parley.close();
    }
  }

  it('are embedded once while cached, and every time with the cache off', async () => {
    expect(await askTwice('1000', 'How fast are orders shipped?')).toBe(1);
    expect(await askTwice('0', 'Where is the warehouse?')).toBe(2);
  }, 120_000);
});
