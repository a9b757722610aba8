import { describe, expect, it } from 'vitest';
import { waitForDatasource } from '../support/datasources.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import {
  detailFields,
  type AgentBody,
  type AnswerBody,
  type DatasourceBody,
  type DatastoreBody,
  type ErrorBody,
  type SearchHitBody,
} from '../support/bodies.js';

/** A small fixed corpus: distinct topics so the right answer is unambiguous. */
const CORPUS = [
  {
    custom_id: 'hours',
    name: 'Opening hours',
    text: 'The bakery opens at seven in the morning and closes at six in the evening, Monday to Saturday.',
  },
  { custom_id: 'returns', name: 'Returns', text: 'Unopened goods can be returned within thirty days for a full refund when you bring the receipt.' },
  {
    custom_id: 'delivery',
    name: 'Delivery',
    text: 'We deliver cakes across the city by bicycle courier; delivery costs four euros and takes two hours.',
  },
  { custom_id: 'allergens', name: 'Allergens', text: 'Every loaf may contain traces of nuts, sesame and gluten; ask staff for the allergen sheet.' },
];

const QUESTIONS: ReadonlyArray<[question: string, customId: string]> = [
  ['When does the bakery open?', 'hours'],
  ['Can I get a refund?', 'returns'],
  ['How much does delivery cost?', 'delivery'],
  ['Do your breads contain nuts?', 'allergens'],
];

interface Fixture {
  parley: TestParley;
  ws: Workspace;
  datastoreId: string;
  ids: Record<string, string>;
}

async function ingestCorpus(parley: TestParley): Promise<Fixture> {
  const ws = await parley.newWorkspace();
  const datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: { name: 'bakery' } })).body.id;
  const ids: Record<string, string> = {};
  for (const doc of CORPUS) {
    const created = await parley.call<DatasourceBody>('POST', '/datasources', { key: ws.key, body: { type: 'text', datastoreId, ...doc } });
    ids[doc.custom_id] = created.body.id;
  }
  for (const id of Object.values(ids)) expect((await waitForDatasource(parley, ws.key, id)).status).toBe('synched');
  return { parley, ws, datastoreId, ids };
}

describe.each(STORE_KINDS)('datastore query on %s', (kind) => {
  let fx: Fixture;
  const query = <T = SearchHitBody[]>(body: unknown, key: string | null = fx.ws.key) =>
    fx.parley.call<T>('POST', `/datastores/${fx.datastoreId}/query`, { key, body });

  parleyTest.beforeAll(async ({ startParley }) => {
    fx = await ingestCorpus(await startParley(kind, { workers: true }));
  });

  it.each(['hybrid', 'vector', 'keyword'])('finds the right passage first in %s mode, scores descending', async (mode) => {
    for (const [question, customId] of QUESTIONS) {
      const { status, body } = await query({ query: question, mode, topK: 4 });
      expect(status).toBe(200);
      expect(body[0]).toMatchObject({ custom_id: customId, datasource_id: fx.ids[customId], datasource_name: expect.any(String) });
      expect(body[0]?.text).toContain(CORPUS.find((doc) => doc.custom_id === customId)!.text.slice(0, 20));
      const scores = body.map((hit) => hit.score);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
      expect(body[0]).toHaveProperty('chunk_id');
      // A text has no address of its own: the source is Parley's URL of its datasource.
      expect(body[0]).toHaveProperty('source', `${fx.parley.core.publicUrl()}/datasources/${fx.ids[customId]}`);
    }
  });

  it('returns topK hits, 5 by default', async () => {
    expect((await query({ query: 'bakery bread cakes refund' })).body.length).toBeLessThanOrEqual(5);
    expect((await query({ query: 'the bakery', topK: 2, mode: 'vector' })).body).toHaveLength(2);
    expect((await query({ query: 'bakery', topK: 100, mode: 'vector' })).body).toHaveLength(CORPUS.length);
  });

  it.each([
    ['topK 0', { query: 'x', topK: 0 }, 'body.topK'],
    ['topK 101', { query: 'x', topK: 101 }, 'body.topK'],
    ['topK not an integer', { query: 'x', topK: 2.5 }, 'body.topK'],
    ['an empty query', { query: '' }, 'body.query'],
    ['a blank query', { query: '   ' }, 'body.query'],
    ['no query', {}, 'body.query'],
    ['an unknown mode', { query: 'x', mode: 'semantic' }, 'body.mode'],
    ['filters not lists', { query: 'x', filters: { custom_ids: 'hours' } }, 'body.filters.custom_ids'],
  ])('refuses %s with 400', async (_label, body, field) => {
    const response = await query<ErrorBody>(body);
    expect(response.status).toBe(400);
    expect(detailFields(response.body)).toContain(field);
  });

  it('filters by datasource ids, custom ids, both (AND), and returns [] when nothing matches', async () => {
    const byDatasource = await query({ query: 'opening hours refund', topK: 10, filters: { datasource_ids: [fx.ids.returns, fx.ids.delivery] } });
    expect(new Set(byDatasource.body.map((hit) => hit.custom_id))).toEqual(new Set(['returns', 'delivery']));
    const byCustomId = await query({ query: 'opening hours', topK: 10, filters: { custom_ids: ['allergens'] } });
    expect(byCustomId.body.map((hit) => hit.custom_id)).toEqual(['allergens']);
    const both = await query({
      query: 'bakery',
      topK: 10,
      filters: { datasource_ids: [fx.ids.hours, fx.ids.returns], custom_ids: ['returns', 'delivery'] },
    });
    expect(both.body.map((hit) => hit.custom_id)).toEqual(['returns']);
    for (const filters of [{ custom_ids: ['nope'] }, { datasource_ids: [] }, { datasource_ids: [fx.ids.hours], custom_ids: ['returns'] }]) {
      const none = await query({ query: 'bakery', filters });
      expect(none.status).toBe(200);
      expect(none.body).toEqual([]);
    }
  });

  it('serves a public datastore without a key, and a private one only with its workspace’s key', async () => {
    const noKey = await query({ query: 'refund' }, null);
    expect(noKey.status).toBe(401);
    const stranger = await fx.parley.newWorkspace();
    expect((await query({ query: 'refund' }, stranger.key)).status).toBe(403);
    await fx.parley.call('PATCH', `/datastores/${fx.datastoreId}`, { key: fx.ws.key, body: { visibility: 'public' } });
    try {
      const open = await query({ query: 'refund' }, null);
      expect(open.status).toBe(200);
      expect(open.body[0]?.custom_id).toBe('returns');
      // A key that is present must still be valid and of the datastore's workspace.
      expect((await query({ query: 'refund' }, 'pk_live_wrong')).status).toBe(401);
      expect((await query({ query: 'refund' }, stranger.key)).status).toBe(403);
    } finally {
      await fx.parley.call('PATCH', `/datastores/${fx.datastoreId}`, { key: fx.ws.key, body: { visibility: 'private' } });
    }
    expect((await fx.parley.call('POST', '/datastores/nope/query', { key: null, body: { query: 'x' } })).status).toBe(404);
  });

  it('no longer returns a deleted datasource, and a re-synced one only with its new content', async () => {
    const extra = await fx.parley.call<DatasourceBody>('POST', '/datasources', {
      key: fx.ws.key,
      body: { type: 'text', datastoreId: fx.datastoreId, text: 'Gift cards are sold at the counter in any amount.', custom_id: 'gifts' },
    });
    await waitForDatasource(fx.parley, fx.ws.key, extra.body.id);
    const before = await query({ query: 'gift cards', topK: 1 });
    expect(before.body[0]?.custom_id).toBe('gifts');
    await fx.parley.call('DELETE', `/datasources/${extra.body.id}`, { key: fx.ws.key });
    for (const mode of ['hybrid', 'vector', 'keyword']) {
      const after = await query({ query: 'gift cards', topK: 10, mode });
      expect(after.body.map((hit) => hit.custom_id)).not.toContain('gifts');
    }
  });

  it('matches a hyphenated word of the query as a whole, not each of its parts anywhere', async () => {
    const key = fx.ws.key;
    const datastoreId = (await fx.parley.call<DatastoreBody>('POST', '/datastores', { key, body: { name: 'compounds' } })).body.id;
    const texts = {
      covid: 'Patients with COVID-19 were admitted to the ward in March.',
      rooms: 'Room 19 has 19 chairs and 19 lamps; the covid ward is elsewhere, in room 2.',
      sars: 'The SARS-CoV-2 genome was sequenced within days.',
    };
    for (const [customId, text] of Object.entries(texts)) {
      const created = await fx.parley.call<DatasourceBody>('POST', '/datasources', {
        key,
        body: { type: 'text', datastoreId, text, custom_id: customId },
      });
      expect((await waitForDatasource(fx.parley, key, created.body.id)).status).toBe('synched');
    }
    const found = async (text: string) =>
      (
        await fx.parley.call<SearchHitBody[]>('POST', `/datastores/${datastoreId}/query`, { key, body: { query: text, mode: 'keyword', topK: 10 } })
      ).body.map((hit) => hit.custom_id);
    expect(await found('COVID-19')).toEqual(['covid']);
    expect(await found('What is SARS-CoV-2?')).toEqual(['sars']);
    expect(await found('covid ward')).toEqual(expect.arrayContaining(['covid', 'rooms']));
  });

  it('answers an agent’s question with its datastore’s fusion weights, citing passages scored as the hybrid query scores them', async () => {
    const key = fx.ws.key;
    const datastoreId = (await fx.parley.call<DatastoreBody>('POST', '/datastores', { key, body: { name: 'keywords only', vectorWeight: 0 } })).body
      .id;
    for (const doc of CORPUS) {
      const created = await fx.parley.call<DatasourceBody>('POST', '/datasources', { key, body: { type: 'text', datastoreId, ...doc } });
      expect((await waitForDatasource(fx.parley, key, created.body.id)).status).toBe('synched');
    }
    const agentId = (
      await fx.parley.call<AgentBody>('POST', '/agents', { key, body: { name: 'Baker', tools: [{ type: 'datastore', datastoreId }] } })
    ).body.id;
    const question = 'Can I get a refund for cakes the courier delivered?';
    const hits = (await fx.parley.call<SearchHitBody[]>('POST', `/datastores/${datastoreId}/query`, { key, body: { query: question, topK: 8 } }))
      .body;
    const answer = (await fx.parley.call<AnswerBody>('POST', `/agents/${agentId}/query`, { key, body: { query: question } })).body;
    expect(hits.length).toBeGreaterThan(1);
    // The sources are the passages the answer cites: hits of the same query, scored by the same fusion.
    const sources = answer.sources ?? [];
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      const hit = hits.find((candidate) => candidate.chunk_id === source.chunk_id);
      expect(hit?.score).toBeCloseTo(source.score, 10);
    }
  });
});

describe.skipIf(STORE_KINDS.length < 2)('the same answers from both stores', () => {
  parleyTest(
    'ranks the same passage first for every question on SQLite and PostgreSQL',
    async ({ startParley }) => {
      const fixtures = [
        await ingestCorpus(await startParley('sqlite', { workers: true })),
        await ingestCorpus(await startParley('postgres', { workers: true })),
      ];
      for (const [question] of QUESTIONS) {
        const tops = await Promise.all(
          fixtures.map(async (fx) => {
            const { body } = await fx.parley.call<SearchHitBody[]>('POST', `/datastores/${fx.datastoreId}/query`, {
              key: fx.ws.key,
              body: { query: question },
            });
            return body[0]!.custom_id;
          }),
        );
        expect(tops[0]).toBe(tops[1]);
      }
    },
    120_000,
  );
});
