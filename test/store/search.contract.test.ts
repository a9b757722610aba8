import { beforeAll, describe, expect, it } from 'vitest';
import type { DatasourceRecord, IndexedContent, NewChunk, SearchScope, WorkspaceRecord } from '../../src/store/store.js';
import { chunk, createDatastore, indexed, indexedDatasource, jobRecord, twoWorkspaces, unit, useScratchStore } from '../support/store-contract.js';
import { STORE_KINDS } from '../support/stores.js';

/** Close to e1, leaning towards e2 then e3, so every fixture chunk has a distinct similarity. */
const QUERY = unit(1, 0.2, 0.1, 0);

describe.each(STORE_KINDS)('the chunk search port of the %s store', (kind) => {
  const store = useScratchStore(kind);

  let a: WorkspaceRecord;
  let b: WorkspaceRecord;
  let d1: string;
  let dResync: string;
  let dWindows: string;
  let d2: string;
  let dB: string;
  /** Chunk ids by name: `red0` is the red guide's first chunk. */
  const ids: Record<string, string> = {};
  const sources: Record<string, DatasourceRecord> = {};

  /** Indexes a datasource and names its chunks `${name}${ordinal}`. */
  async function add(
    name: string,
    workspaceId: string,
    datastoreId: string,
    chunks: NewChunk[],
    datasource: Partial<DatasourceRecord> = {},
    content: Partial<IndexedContent> = {},
  ) {
    const indexedSource = await indexedDatasource(store(), workspaceId, chunks, { datastoreId, datasource, content });
    sources[name] = indexedSource;
    for (const found of await store().datasources.listChunks(workspaceId, indexedSource.id, { offset: 0, limit: 100 })) {
      ids[`${name}${found.ordinal}`] = found.id;
    }
  }

  beforeAll(async () => {
    [a, b] = await twoWorkspaces(store());
    [d1, d2, dB] = [(await createDatastore(store(), a.id)).id, (await createDatastore(store(), a.id)).id, (await createDatastore(store(), b.id)).id];
    await add(
      'red',
      a.id,
      d1,
      [chunk(0, 'Vaccine storage temperature', unit(1, 0, 0, 0)), chunk(1, 'Opening hours of the clinic', unit(0, 0, 1, 0))],
      {
        customId: 'red',
        name: 'Red guide',
        type: 'web_page',
        mimeType: 'text/html',
        config: { source_url: 'https://example.com/red' },
      },
      { totalPages: 2 },
    );
    await add('blue', a.id, d1, [chunk(0, 'Storage of blue boxes', unit(1, 1, 0, 0))], { customId: 'blue' });
    await add('plain', a.id, d1, [chunk(0, 'Parking near the entrance', unit(0, 1, 0, 0))]);
    await add('second', a.id, d2, [chunk(0, 'Vaccine storage in the second datastore', unit(1, 0, 0, 0))]);
    await add('other', b.id, dB, [chunk(0, 'Vaccine storage in workspace B', unit(1, 0, 0, 0))], { customId: 'red' });
    // Indexed, then its re-sync failed: its chunks are still stored but no longer searched.
    await add('failed', a.id, d1, [chunk(0, 'Vaccine storage vaccine storage, failed', unit(1, 0, 0, 0))], { customId: 'red' });
    await store().datasources.report(a.id, sources.failed!.id, 1, { status: 'error', error: 'the page is gone' });
    dResync = (await createDatastore(store(), a.id)).id;
    // Indexed, then re-synced: searched with its last index until the new one replaces it.
    await add('resyncing', a.id, dResync, [chunk(0, 'Vaccine storage, being re-indexed', unit(1, 0, 0, 0))]);
    await store().datasources.requeue(a.id, sources.resyncing!.id, () => jobRecord());
    dWindows = (await createDatastore(store(), a.id)).id;
    // A chunk embedded as three windows, one of them close to the query: it scores as that window.
    const windowed = { ...chunk(0, 'A long chunk read in windows'), vectors: [unit(0, 0, 0, 1), unit(1, 0, 0, 0), unit(0, 1, 0, 1)] };
    await add('windowed', a.id, dWindows, [windowed, chunk(1, 'A short chunk', unit(1, 1, 0, 0)), chunk(2, 'Far away', unit(0, 0, 1, 0))]);
    await add('neighbour', a.id, dWindows, [chunk(0, 'Farther away', unit(0, 0, 1, 1))]);
  });

  const scope = (overrides: Partial<SearchScope> = {}): SearchScope => ({ workspaceId: a.id, datastoreIds: [d1], ...overrides });
  const named = (hits: { chunkId: string }[]) => hits.map((hit) => Object.keys(ids).find((name) => ids[name] === hit.chunkId) ?? hit.chunkId);
  const vector = async (searchScope: SearchScope, limit = 10) => named(await store().search.vectorSearch(searchScope, QUERY, limit));
  const keyword = async (searchScope: SearchScope, query: string, limit = 10) => named(await store().search.keywordSearch(searchScope, query, limit));

  describe('vector search', () => {
    it('finds the nearest chunks best first, by cosine similarity', async () => {
      const hits = await store().search.vectorSearch(scope(), QUERY, 10);
      expect(named(hits)).toEqual(['red0', 'blue0', 'plain0', 'red1']);
      expect(hits[0]!.score).toBeCloseTo(1 / Math.hypot(1, 0.2, 0.1), 4);
      expect(hits[1]!.score).toBeCloseTo(1.2 / Math.SQRT2 / Math.hypot(1, 0.2, 0.1), 4);
      expect(hits.map((hit) => hit.score)).toEqual([...hits.map((hit) => hit.score)].sort((x, y) => y - x));
    });

    it('returns at most `limit` hits', async () => {
      expect(await vector(scope(), 2)).toEqual(['red0', 'blue0']);
    });

    it('takes the query vector while it is still being computed', async () => {
      let resolve!: (value: Float32Array) => void;
      const pending = new Promise<Float32Array>((done) => (resolve = done));
      const search = store().search.vectorSearch(scope(), pending, 2);
      resolve(QUERY);
      expect(named(await search)).toEqual(['red0', 'blue0']);
    });

    it('searches only the datastores in scope', async () => {
      expect(await vector(scope({ datastoreIds: [d2] }))).toEqual(['second0']);
      expect((await vector(scope({ datastoreIds: [d1, d2] }))).slice(2).sort()).toEqual(['blue0', 'plain0', 'red1']);
    });

    it('never returns another workspace’s chunks, even for its datastore ids', async () => {
      expect(await vector(scope({ datastoreIds: [dB] }))).toEqual([]);
      expect(await vector({ workspaceId: b.id, datastoreIds: [d1, d2] })).toEqual([]);
      expect(await vector({ workspaceId: b.id, datastoreIds: [dB, d1] })).toEqual(['other0']);
    });

    it('narrows to the datasources and custom ids listed, each an OR list', async () => {
      expect(await vector(scope({ datasourceIds: [sources.blue!.id, sources.plain!.id] }))).toEqual(['blue0', 'plain0']);
      expect(await vector(scope({ customIds: ['red', 'blue'] }))).toEqual(['red0', 'blue0', 'red1']);
      expect(await vector(scope({ customIds: ['red'], datasourceIds: [sources.red!.id, sources.blue!.id] }))).toEqual(['red0', 'red1']);
    });

    it('finds nothing when a filter list is empty', async () => {
      expect(await vector(scope({ datastoreIds: [] }))).toEqual([]);
      expect(await vector(scope({ datasourceIds: [] }))).toEqual([]);
      expect(await vector(scope({ customIds: [] }))).toEqual([]);
    });

    it('skips the chunks of a datasource whose last indexing failed, and keeps one being re-indexed', async () => {
      expect(await vector(scope({ datasourceIds: [sources.failed!.id] }))).toEqual([]);
      expect(await vector(scope())).not.toContain('failed0');
      expect(await vector(scope({ datastoreIds: [dResync] }))).toEqual(['resyncing0']);
    });

    it('scores a chunk embedded in windows by its best window, once', async () => {
      const hits = await store().search.vectorSearch(scope({ datastoreIds: [dWindows] }), QUERY, 10);
      expect(named(hits)).toEqual(['windowed0', 'windowed1', 'windowed2', 'neighbour0']);
      expect(hits[0]!.score).toBeCloseTo(1 / Math.hypot(1, 0.2, 0.1), 4);
      expect(named(await store().search.vectorSearch(scope({ datastoreIds: [dWindows] }), QUERY, 1))).toEqual(['windowed0']);
      const filtered = scope({ datastoreIds: [dWindows], datasourceIds: [sources.windowed!.id] });
      expect(named(await store().search.vectorSearch(filtered, QUERY, 2))).toEqual(['windowed0', 'windowed1']);
    });

    it('skips vectors of other dimensions than the query’s (made by another model)', async () => {
      const wider = Float32Array.from([...QUERY, 0, 0, 0, 0]);
      expect(await store().search.vectorSearch(scope(), wider, 10)).toEqual([]);
      expect(await store().search.vectorSearch(scope({ datasourceIds: [sources.red!.id] }), wider, 10)).toEqual([]);
      expect(await vector(scope(), 1)).toEqual(['red0']);
    });

    it('finds the new chunks, not the old ones, once a datasource was indexed again', async () => {
      const [c] = await twoWorkspaces(store());
      const datastore = await createDatastore(store(), c.id);
      const source = await indexedDatasource(store(), c.id, [chunk(0, 'old text', unit(1, 0, 0, 0))], { datastoreId: datastore.id });
      const searchScope = { workspaceId: c.id, datastoreIds: [datastore.id] };
      const [old] = await store().search.vectorSearch(searchScope, QUERY, 5);
      await store().datasources.requeue(c.id, source.id, () => jobRecord());
      await store().datasources.writeIndex(
        source.workspaceId,
        source.id,
        2,
        indexed([chunk(0, 'new text', unit(0, 1, 0, 0)), chunk(1, 'more', unit(0, 0, 0, 1))]),
      );
      const hits = await store().search.vectorSearch(searchScope, QUERY, 5);
      const [current] = await store().datasources.listChunks(c.id, source.id, { offset: 0, limit: 1 });
      expect(hits).toHaveLength(2);
      expect(hits[0]?.chunkId).toBe(current?.id);
      expect(hits.map((hit) => hit.chunkId)).not.toContain(old?.chunkId);
    });
  });

  describe('after a deletion', () => {
    it('never finds the chunks of a deleted datasource, by vector or by keyword', async () => {
      const [c] = await twoWorkspaces(store());
      const datastore = await createDatastore(store(), c.id);
      const kept = await indexedDatasource(store(), c.id, [chunk(0, 'lighthouse keeper', unit(0, 1, 0, 0))], { datastoreId: datastore.id });
      const doomed = await indexedDatasource(store(), c.id, [chunk(0, 'lighthouse lamp', unit(1, 0, 0, 0))], { datastoreId: datastore.id });
      const searchScope = { workspaceId: c.id, datastoreIds: [datastore.id] };
      expect(await store().search.vectorSearch(searchScope, QUERY, 5)).toHaveLength(2);
      await store().datasources.delete(c.id, doomed.id);
      const [keptChunk] = await store().datasources.listChunks(c.id, kept.id, { offset: 0, limit: 1 });
      expect((await store().search.vectorSearch(searchScope, QUERY, 5)).map((hit) => hit.chunkId)).toEqual([keptChunk?.id]);
      expect((await store().search.keywordSearch(searchScope, 'lighthouse', 5)).map((hit) => hit.chunkId)).toEqual([keptChunk?.id]);
    });

    it('finds nothing in a deleted datastore', async () => {
      const [c] = await twoWorkspaces(store());
      const source = await indexedDatasource(store(), c.id, [chunk(0, 'foghorn', unit(1, 0, 0, 0))]);
      const searchScope = { workspaceId: c.id, datastoreIds: [source.datastoreId] };
      expect(await store().search.vectorSearch(searchScope, QUERY, 5)).toHaveLength(1);
      await store().datastores.delete(c.id, source.datastoreId);
      expect(await store().search.vectorSearch(searchScope, QUERY, 5)).toEqual([]);
      expect(await store().search.keywordSearch(searchScope, 'foghorn', 5)).toEqual([]);
    });
  });

  describe('keyword search', () => {
    it('finds the chunks containing the query’s words, those with more of them first', async () => {
      expect(await keyword(scope(), 'vaccine storage')).toEqual(['red0', 'blue0']);
      expect(await keyword(scope(), 'clinic')).toEqual(['red1']);
      expect(await keyword(scope(), 'vaccine storage', 1)).toEqual(['red0']);
    });

    it('ignores case and finds a word by another form of it', async () => {
      expect(await keyword(scope(), 'VACCINES')).toEqual(['red0']);
    });

    it('is scoped like vector search: workspace, datastores, datasources, custom ids, searchable statuses', async () => {
      expect(await keyword({ workspaceId: b.id, datastoreIds: [d1, d2] }, 'vaccine')).toEqual([]);
      expect(await keyword(scope({ datastoreIds: [dB] }), 'vaccine')).toEqual([]);
      expect(await keyword(scope({ datastoreIds: [d2] }), 'vaccine')).toEqual(['second0']);
      expect(await keyword(scope({ datasourceIds: [sources.blue!.id] }), 'vaccine storage')).toEqual(['blue0']);
      expect(await keyword(scope({ customIds: ['blue'] }), 'vaccine storage')).toEqual(['blue0']);
      expect(await keyword(scope({ datasourceIds: [sources.failed!.id] }), 'failed')).toEqual([]);
      expect(await keyword(scope({ datastoreIds: [dResync] }), 're-indexed')).toEqual(['resyncing0']);
      expect(await keyword(scope({ customIds: [] }), 'vaccine')).toEqual([]);
    });

    it('finds nothing for a query without words, and takes search operators in the query as plain text', async () => {
      expect(await keyword(scope(), '?! -- ...')).toEqual([]);
      expect(await keyword(scope(), 'the of and')).toEqual([]);
      expect(await keyword(scope(), 'clinic" OR NOT (storage* NEAR')).toEqual(expect.arrayContaining(['red1']));
      expect(await keyword(scope(), 'NOT clinic')).toContain('red1');
    });
  });

  describe('details', () => {
    it('gives each chunk’s text and origin, in the order asked', async () => {
      const details = await store().search.details(a.id, [ids.blue0!, ids.red0!]);
      expect(details).toEqual([
        {
          chunkId: ids.blue0,
          text: 'Storage of blue boxes',
          source: 'source 0',
          pageNumber: null,
          datasourceId: sources.blue!.id,
          datasourceName: 'notes.txt',
          datasourceType: 'text',
          customId: 'blue',
          mimeType: null,
          totalPages: null,
          sourceUrl: null,
        },
        {
          chunkId: ids.red0,
          text: 'Vaccine storage temperature',
          source: 'source 0',
          pageNumber: null,
          datasourceId: sources.red!.id,
          datasourceName: 'Red guide',
          datasourceType: 'web_page',
          customId: 'red',
          mimeType: 'text/html',
          totalPages: 2,
          sourceUrl: 'https://example.com/red',
        },
      ]);
    });

    it('drops the ids of another workspace’s chunks and unknown ids', async () => {
      const details = await store().search.details(a.id, [ids.other0!, ids.plain0!, 'no-such-chunk']);
      expect(details.map((found) => found.chunkId)).toEqual([ids.plain0]);
      expect(await store().search.details(b.id, [ids.red0!])).toEqual([]);
      expect(await store().search.details(a.id, [])).toEqual([]);
    });
  });
});
