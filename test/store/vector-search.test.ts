import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { openStore } from '../../src/store/open-store.js';
import type { NewChunk, SearchScope, Store } from '../../src/store/store.js';
import { STORE_KINDS, createScratchStore, type ScratchStore } from '../support/stores.js';
import { datasourceRecord, datastoreRecord, indexed, jobRecord } from '../support/store-contract.js';

const DIMENSIONS = 64;
const DATASOURCES = 100;
const CHUNKS_PER_DATASOURCE = 80;

/** Deterministic pseudo-random numbers, so every run searches the same vectors. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32 - 0.5;
  };
}

function unit(values: number[]): Float32Array {
  const norm = Math.hypot(...values);
  return Float32Array.from(values, (value) => value / norm);
}

/** Clustered vectors, as real embeddings are: 40 centres with noise around them. */
function makeVectors(count: number, next: () => number): Float32Array[] {
  const centres = Array.from({ length: 40 }, () => Array.from({ length: DIMENSIONS }, next));
  return Array.from({ length: count }, (_, i) => unit(centres[i % centres.length]!.map((value) => value + next() * 0.6)));
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((total, value, i) => total + value * b[i]!, 0);

describe.each(STORE_KINDS)('vector search in the %s store', (kind) => {
  let scratch: ScratchStore;
  let store: Store;
  const workspaceId = newId();
  const datastoreId = newId();
  const datasourceIds: string[] = [];
  const vectors = new Map<string, { datasourceId: string; vector: Float32Array }>();

  beforeAll(async () => {
    scratch = await createScratchStore(kind);
    store = await openStore(scratch.config, scratch.dataDir);
    const at = new Date().toISOString();
    await store.workspaces.create({ id: workspaceId, name: `vectors ${workspaceId}`, createdAt: at });
    await store.datastores.create(datastoreRecord(workspaceId, { id: datastoreId, name: 'synthetic', vectorWeight: 1, vectorWindows: false }));
    const next = random(7);
    const all = makeVectors(DATASOURCES * CHUNKS_PER_DATASOURCE, next);
    for (let d = 0; d < DATASOURCES; d += 1) {
      const id = newId();
      datasourceIds.push(id);
      await store.datasources.create(
        datasourceRecord(workspaceId, datastoreId, { id, name: `doc ${d}`, status: 'pending', customId: `c${d % 10}` }),
        jobRecord({ workspaceId }),
      );
      const chunks: NewChunk[] = Array.from({ length: CHUNKS_PER_DATASOURCE }, (_, ordinal) => ({
        ordinal,
        text: `chunk ${d}-${ordinal}`,
        source: `doc ${d}`,
        pageNumber: null,
        tokens: 3,
        vectors: [all[d * CHUNKS_PER_DATASOURCE + ordinal]!],
      }));
      const outcome = await store.datasources.writeIndex(
        workspaceId,
        id,
        1,
        indexed(chunks, { embeddingModel: 'synthetic', embeddingDimensions: DIMENSIONS }),
      );
      expect(outcome).toBe('written');
      chunks.forEach((chunk) => vectors.set(`${id}.1.${chunk.ordinal}`, { datasourceId: id, vector: chunk.vectors[0]! }));
    }
  }, 180_000);
  afterAll(async () => {
    await store.close();
    await scratch.drop();
  });

  const exactTop = (query: Float32Array, allowed: (datasourceId: string) => boolean, k: number) =>
    [...vectors]
      .filter(([, entry]) => allowed(entry.datasourceId))
      .map(([id, entry]) => ({ id, score: dot(query, entry.vector) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, k)
      .map((hit) => hit.id);

  const recall = async (scope: SearchScope, allowed: (datasourceId: string) => boolean) => {
    const next = random(99);
    let found = 0;
    const queries = makeVectors(30, next);
    for (const query of queries) {
      const hits = await store.search.vectorSearch(scope, query, 10);
      expect(hits).toHaveLength(10);
      const expected = new Set(exactTop(query, allowed, 10));
      found += hits.filter((hit) => expected.has(hit.chunkId)).length;
      for (const hit of hits) expect(allowed(vectors.get(hit.chunkId)!.datasourceId)).toBe(true);
    }
    return found / (queries.length * 10);
  };

  it('finds the true nearest neighbours of the whole datastore (recall@10 ≥ 0.9)', async () => {
    expect(await recall({ workspaceId, datastoreIds: [datastoreId] }, () => true)).toBeGreaterThanOrEqual(0.9);
  });

  it('filters inside the search: a filter matching 1% of chunks still returns 10 true hits', async () => {
    const chosen = new Set([datasourceIds[3]!]);
    const scope = { workspaceId, datastoreIds: [datastoreId], datasourceIds: [...chosen] };
    expect(await recall(scope, (id) => chosen.has(id))).toBe(1);
  });

  it('keeps recall with a broad filter (custom ids covering 60% of chunks)', async () => {
    const customIds = ['c0', 'c1', 'c2', 'c3', 'c4', 'c5'];
    const allowed = new Set(datasourceIds.filter((_, d) => customIds.includes(`c${d % 10}`)));
    const scope = { workspaceId, datastoreIds: [datastoreId], customIds };
    expect(await recall(scope, (id) => allowed.has(id))).toBeGreaterThanOrEqual(0.9);
  });

  it('takes a query vector still being computed, and passes on its failure', async () => {
    const scope = { workspaceId, datastoreIds: [datastoreId] };
    const query = makeVectors(1, random(11))[0]!;
    const pending = new Promise<Float32Array>((resolve) => setTimeout(() => resolve(query), 20));
    expect(await store.search.vectorSearch(scope, pending, 10)).toEqual(await store.search.vectorSearch(scope, query, 10));
    const failure = () => Promise.reject(new Error('embedding model down'));
    await expect(store.search.vectorSearch(scope, failure(), 10)).rejects.toThrow('embedding model down');
    await expect(store.search.vectorSearch({ ...scope, datasourceIds: [] }, failure(), 10)).rejects.toThrow('embedding model down');
  });

  it('sees another workspace’s scope as empty', async () => {
    const hits = await store.search.vectorSearch({ workspaceId: newId(), datastoreIds: [datastoreId] }, makeVectors(1, random(3))[0]!, 10);
    expect(hits).toEqual([]);
  });

  it('follows deletes and re-indexing of a datasource', async () => {
    const victim = datasourceIds[5]!;
    const target = vectors.get(`${victim}.1.0`)!.vector;
    const scope = { workspaceId, datastoreIds: [datastoreId] };
    expect((await store.search.vectorSearch(scope, target, 1))[0]!.chunkId).toBe(`${victim}.1.0`);
    await store.datasources.delete(workspaceId, victim);
    const after = await store.search.vectorSearch(scope, target, 10);
    expect(after.map((hit) => hit.chunkId).filter((id) => id.startsWith(victim))).toEqual([]);
  });
});
