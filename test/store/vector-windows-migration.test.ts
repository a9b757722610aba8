import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { connectBare, openMigratedFrom, type MigratedStore } from '../support/migrations.js';
import { unit } from '../support/store-contract.js';
import { STORE_KINDS, type ScratchStore } from '../support/stores.js';

const AT = '2026-01-01T00:00:00.000Z';
const VECTORS = [unit(1, 0, 0, 0), unit(0, 1, 0, 0), unit(1, 1, 0, 0)];

describe.each(STORE_KINDS)('migration 010: vectors per window, on %s', (kind) => {
  let migrated: MigratedStore;
  let scratch: ScratchStore;
  let store: Store;

  beforeAll(async () => {
    migrated = await openMigratedFrom(kind, '009-request-ids', async (db) => {
      // What a store of the previous release holds: a synched datasource, its chunks with one vector each.
      await sql`insert into workspace (id, name, created_at) values ('ws_a', 'A', ${AT})`.execute(db);
      await sql`insert into datastore (id, workspace_id, name, description, type, visibility, embedding_model, embedding_dimensions, created_at, updated_at)
        values ('ds_1', 'ws_a', 'Docs', '', 'vector_a', 'private', 'contract-embed', 4, ${AT}, ${AT})`.execute(db);
      for (const [id, status] of [
        ['src_1', 'synched'],
        ['src_2', 'pending'],
      ] as const) {
        await sql`insert into datasource (id, workspace_id, datastore_id, type, name, status, config, progress, nb_chunks, text_size, generation, last_synch, created_at, updated_at)
          values (${id}, 'ws_a', 'ds_1', 'text', ${id}, ${status}, '{}', 1, 3, 30, 1, ${status === 'synched' ? AT : null}, ${AT}, ${AT})`.execute(db);
      }
      for (const [ordinal, vector] of VECTORS.entries()) {
        const embedding = kind === 'sqlite' ? Buffer.from(vector.buffer) : `[${vector.join(',')}]`;
        await sql`insert into chunk (id, workspace_id, datastore_id, datasource_id, ordinal, text, source, tokens, dimensions, embedding)
          values (${`src_1.1.${ordinal}`}, 'ws_a', 'ds_1', 'src_1', ${ordinal}, ${`storage text ${ordinal}`}, 'src_1', 3, 4, ${embedding})`.execute(
          db,
        );
      }
    });
    ({ scratch, store } = migrated);
  }, 60_000);
  afterAll(() => migrated.close());

  it('keeps every chunk searchable by its vector, now its one window', async () => {
    const scope = { workspaceId: 'ws_a', datastoreIds: ['ds_1'] };
    const hits = await store.search.vectorSearch(scope, unit(1, 0.1, 0, 0), 10);
    expect(hits.map((hit) => hit.chunkId)).toEqual(['src_1.1.0', 'src_1.1.2', 'src_1.1.1']);
    expect(hits[0]!.score).toBeCloseTo(1 / Math.hypot(1, 0.1), 4);
    expect((await store.search.keywordSearch(scope, 'storage', 10)).length).toBe(3);
    expect(await store.datasources.listChunks('ws_a', 'src_1', { offset: 0, limit: 10 })).toHaveLength(3);
  });

  it('turns windows on for the datastore and lists its indexed datasource for re-embedding', async () => {
    expect(await store.datastores.find('ws_a', 'ds_1')).toMatchObject({ vectorWindows: true, embeddingModel: 'contract-embed' });
    const stale = await store.datasources.listWithOtherVectorLayout({ windowed: 'windows:90/60', whole: 'whole' });
    expect(stale.map((datasource) => datasource.id)).toEqual(['src_1']);
    await store.datastores.update('ws_a', 'ds_1', { vectorWindows: false }, AT);
    expect(await store.datasources.listWithOtherVectorLayout({ windowed: 'windows:90/60', whole: 'whole' })).toEqual([]);
  });

  it('deletes a chunk’s vectors with it', async () => {
    await store.datasources.delete('ws_a', 'src_1');
    expect(await store.search.vectorSearch({ workspaceId: 'ws_a', datastoreIds: ['ds_1'] }, unit(1, 0, 0, 0), 10)).toEqual([]);
    const db = connectBare(scratch);
    try {
      const { rows } = await sql<{ count: number | string }>`select count(*) as count from chunk_vector`.execute(db);
      expect(Number(rows[0]!.count)).toBe(0);
    } finally {
      await db.destroy();
    }
  });
});
