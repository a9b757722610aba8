import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { openStore } from '../../src/store/open-store.js';
import type { NewChunk, Store } from '../../src/store/store.js';
import { HnswDatastoreIndex } from '../../src/store/sqlite/hnsw-datastore-index.js';
import {
  chunk,
  createDatastore,
  createWorkspace,
  datasourceRecord,
  datastoreRecord,
  indexed,
  indexedDatasource,
  jobRecord,
} from '../support/store-contract.js';
import { createScratchStore, type ScratchStore } from '../support/stores.js';

const DIMENSIONS = 16;
const CHUNKS = 200;

/** Deterministic unit vectors. */
function vectorOf(seed: number): Float32Array {
  let state = seed + 1;
  const values = Array.from({ length: DIMENSIONS }, () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32 - 0.5;
  });
  const norm = Math.hypot(...values);
  return Float32Array.from(values, (value) => value / norm);
}

async function waitFor(file: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (
      await fs.stat(file).then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${file} was never written`);
}

describe('the embedded store’s HNSW index', () => {
  let scratch: ScratchStore;
  let store: Store;
  const workspaceId = newId();
  const datastoreId = newId();
  const datasourceId = newId();
  const scope = { workspaceId, datastoreIds: [datastoreId] };

  beforeAll(async () => {
    scratch = await createScratchStore('sqlite');
    store = await openStore(scratch.config, scratch.dataDir);
    const at = new Date().toISOString();
    await store.workspaces.create({ id: workspaceId, name: 'hnsw', createdAt: at });
    await store.datastores.create(datastoreRecord(workspaceId, { id: datastoreId, name: 'index', vectorWeight: 1, vectorWindows: false }));
    await store.datasources.create(datasourceRecord(workspaceId, datastoreId, { id: datasourceId, status: 'pending' }), {
      id: newId(),
      kind: 'noop',
      workspaceId,
      payload: {},
      maxAttempts: 1,
    });
    const chunks: NewChunk[] = Array.from({ length: CHUNKS }, (_, ordinal) => ({
      ordinal,
      text: `chunk ${ordinal}`,
      source: 'doc',
      pageNumber: null,
      tokens: 2,
      vectors: [vectorOf(ordinal)],
    }));
    await store.datasources.writeIndex(
      workspaceId,
      datasourceId,
      1,
      indexed(chunks, { embeddingModel: 'synthetic', embeddingDimensions: DIMENSIONS }),
    );
  });
  afterAll(async () => {
    await store.close();
    await scratch.drop();
  });

  it('never returns a point its label list lost (an interrupted save), searching unfiltered', async () => {
    const target = `${datasourceId}.1.7`;
    expect((await store.search.vectorSearch(scope, vectorOf(7), 1))[0]!.chunkId).toBe(target);
    // Saved a second after the build: reopen from the saved files, with chunk 7's label cut from the list.
    const meta = path.join(scratch.dataDir, 'indexes', `${datastoreId}.hnsw.json`);
    await waitFor(meta);
    await store.close();
    const saved = JSON.parse(await fs.readFile(meta, 'utf8')) as { labels: [number, string][] };
    expect(saved.labels).toHaveLength(CHUNKS);
    saved.labels.splice(7, 1);
    await fs.writeFile(meta, JSON.stringify(saved));
    store = await openStore(scratch.config, scratch.dataDir);

    const hits = await store.search.vectorSearch(scope, vectorOf(7), 10);
    expect(hits).toHaveLength(10);
    expect(hits.map((hit) => hit.chunkId)).not.toContain(target);
    expect(hits[0]!.score).toBeLessThan(0.999);
  });
});

describe('the embedded store’s HNSW index after a re-index', () => {
  it('searches the new vectors of the datastore’s last datasource re-indexed, never its old ones', async () => {
    const scratch = await createScratchStore('sqlite');
    const store = await openStore(scratch.config, scratch.dataDir);
    try {
      const workspace = await createWorkspace(store);
      const chunks = (seedOf: (ordinal: number) => number) =>
        Array.from({ length: 3 }, (_, ordinal) => chunk(ordinal, `chunk ${ordinal}`, vectorOf(seedOf(ordinal))));
      const content = { embeddingDimensions: DIMENSIONS };
      const source = await indexedDatasource(
        store,
        workspace.id,
        chunks((ordinal) => ordinal),
        { content },
      );
      const scope = { workspaceId: workspace.id, datastoreIds: [source.datastoreId] };
      expect((await store.search.vectorSearch(scope, vectorOf(0), 1))[0]).toMatchObject({ chunkId: `${source.id}.1.0` });

      // The same rows deleted and written again, last in the table: SQLite would hand out the same rowids.
      await store.datasources.requeue(workspace.id, source.id, () => jobRecord({ workspaceId: workspace.id }));
      expect(
        await store.datasources.writeIndex(
          workspace.id,
          source.id,
          2,
          indexed(
            chunks((ordinal) => 100 + ordinal),
            content,
          ),
        ),
      ).toBe('written');
      const [best] = await store.search.vectorSearch(scope, vectorOf(100), 1);
      expect(best).toMatchObject({ chunkId: `${source.id}.2.0` });
      expect(best!.score).toBeCloseTo(1, 5);
      expect((await store.search.vectorSearch(scope, vectorOf(0), 3)).every((hit) => hit.score < 0.999)).toBe(true);
    } finally {
      await store.close();
      await scratch.drop();
    }
  });
});

describe('the embedded store’s warm-up', () => {
  it('opens the vector indexes of the datastores changed last before any search, so their first search opens none', async () => {
    const scratch = await createScratchStore('sqlite');
    const store = await openStore(scratch.config, scratch.dataDir);
    const opened = vi.spyOn(HnswDatastoreIndex, 'open');
    try {
      const workspace = await createWorkspace(store);
      const withoutVectors = await createDatastore(store, workspace.id);
      const sources = [];
      for (const [index, at] of ['2026-01-01', '2026-03-01', '2026-02-01'].entries()) {
        const source = await indexedDatasource(store, workspace.id, [chunk(0, `chunk ${index}`, vectorOf(index))], {
          content: { embeddingDimensions: DIMENSIONS },
        });
        await store.datastores.update(workspace.id, source.datastoreId, { name: `changed ${at}` }, `${at}T00:00:00.000Z`);
        sources.push(source);
      }
      await store.datastores.update(workspace.id, withoutVectors.id, { name: 'latest, empty' }, '2026-04-01T00:00:00.000Z');
      // Vectors written, the index is built at the first search, not before.
      expect(opened).not.toHaveBeenCalled();

      await store.search.warmUp!(2);
      expect(opened.mock.calls.map((call) => call[1])).toEqual([sources[1]!.datastoreId, sources[2]!.datastoreId]);
      for (const [index, source] of sources.entries()) {
        const scope = { workspaceId: workspace.id, datastoreIds: [source.datastoreId] };
        expect((await store.search.vectorSearch(scope, vectorOf(index), 1))[0]).toMatchObject({ chunkId: `${source.id}.1.0` });
      }
      // Only the datastore left out of the warm-up opened its index when searched.
      expect(opened.mock.calls.map((call) => call[1])).toEqual([sources[1]!.datastoreId, sources[2]!.datastoreId, sources[0]!.datastoreId]);
    } finally {
      opened.mockRestore();
      await store.close();
      await scratch.drop();
    }
  });
});
