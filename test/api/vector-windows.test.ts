import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { waitForDatasource } from '../support/datasources.js';
import { FakeEmbeddingsServer } from '../support/fake-embeddings-server.js';
import { connectBare } from '../support/migrations.js';
import { startTestParley, type TestParley } from '../support/parley.js';
import { STORE_KINDS, createScratchStore } from '../support/stores.js';
import type { DatasourceBody, DatastoreBody, SearchHitBody } from '../support/bodies.js';

/** 120 words in 20 sentences: one chunk, read by a 32-token model as 8 windows of 22 words every 15. */
const TEXT = Array.from({ length: 20 }, (_, i) => `Sentence ${i} covers topic${i} in detail.`).join(' ');
const WINDOWS = 8;

describe.each(STORE_KINDS)('window vectors on %s', (kind) => {
  const server = new FakeEmbeddingsServer();
  let env: Record<string, string> = {};

  beforeAll(async () => {
    const url = await server.start();
    env = { PARLEY_EMBEDDINGS_URL: url, PARLEY_EMBEDDINGS_MODEL: 'fake-embed', PARLEY_EMBEDDINGS_MAX_INPUT_TOKENS: '32' };
  });
  afterAll(() => server.stop());

  /** The parts of TEXT the model was asked to embed since `from` (a request count): queries are not. */
  const embeddedSince = (from: number) =>
    server.requests
      .slice(from)
      .flatMap((request) => request.body.input ?? [])
      .filter((input) => TEXT.includes(input));

  /** Waits until the datasource was indexed again after `previous` (its last synch time then). */
  const reindexed = (parley: TestParley, key: string, id: string, previous: string | null | undefined) =>
    vi.waitFor(
      async () => {
        const { body } = await parley.call<DatasourceBody>('GET', `/datasources/${id}`, { key });
        if (body.status !== 'synched' || body.lastSynch === previous) throw new Error(`still ${body.status}`);
        return body;
      },
      { timeout: 60_000, interval: 100 },
    );

  it('embeds a chunk longer than the model reads as windows, re-embeds when the setting changes or at start, searchable throughout', async () => {
    const scratch = await createScratchStore(kind);
    try {
      let parley = await startTestParley(kind, { scratch, workers: true, env });
      const ws = await parley.newWorkspace();
      const datastore = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: {} })).body;
      expect(datastore.vectorWindows).toBe(true);
      const query = (call: TestParley['call']) =>
        call<SearchHitBody[]>('POST', `/datastores/${datastore.id}/query`, {
          key: ws.key,
          body: { query: 'what is said about topic number seven', mode: 'vector' },
        });

      const sent = server.requests.length;
      const created = (
        await parley.call<DatasourceBody>('POST', '/datasources', { key: ws.key, body: { type: 'text', datastoreId: datastore.id, text: TEXT } })
      ).body;
      const first = await waitForDatasource(parley, ws.key, created.id);
      expect(first).toMatchObject({ status: 'synched', nbChunks: 1 });
      const windows = embeddedSince(sent);
      expect(windows).toHaveLength(WINDOWS);
      expect(windows.every((window) => window.split(' ').length <= 22)).toBe(true);
      expect(new Set(windows.flatMap((window) => window.split(' ')))).toEqual(new Set(TEXT.split(' ')));
      const hits = (await query(parley.call)).body;
      expect(hits.map((hit) => hit.text)).toEqual([TEXT]);

      // Off: the datastore is re-embedded, a vector per chunk; its content is found meanwhile.
      const beforePatch = server.requests.length;
      const patched = await parley.call<DatastoreBody>('PATCH', `/datastores/${datastore.id}`, { key: ws.key, body: { vectorWindows: false } });
      expect(patched.body.vectorWindows).toBe(false);
      expect((await query(parley.call)).body).toHaveLength(1);
      const whole = await reindexed(parley, ws.key, created.id, first.lastSynch);
      expect(embeddedSince(beforePatch)).toEqual([TEXT]);
      expect((await query(parley.call)).body.map((hit) => hit.text)).toEqual([TEXT]);

      // A PATCH that leaves the setting as it is re-embeds nothing.
      await parley.call('PATCH', `/datastores/${datastore.id}`, { key: ws.key, body: { vectorWindows: false, name: 'Renamed' } });
      expect((await parley.call<DatasourceBody>('GET', `/datasources/${created.id}`, { key: ws.key })).body.lastSynch).toBe(whole.lastSynch);
      await parley.close();

      // As a store of the release before windows: the setting on, the index whole. The next start re-embeds it.
      const db = connectBare(scratch);
      await sql`update datastore set vector_windows = 1`.execute(db);
      await db.destroy();
      const beforeStart = server.requests.length;
      parley = await startTestParley(kind, { scratch, workers: true, env });
      try {
        await reindexed(parley, ws.key, created.id, whole.lastSynch);
        expect(embeddedSince(beforeStart)).toHaveLength(WINDOWS);
        expect((await query(parley.call)).body.map((hit) => hit.text)).toEqual([TEXT]);
      } finally {
        await parley.close();
      }
    } finally {
      await scratch.drop();
    }
  }, 180_000);
});
