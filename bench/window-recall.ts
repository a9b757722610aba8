/**
 * Vector search over window vectors (each chunk embedded as several windows, scored by its best one) at
 * the limits clients ask for: recall of the chunks against exact max-sim, and latency. The store fetches
 * a fixed number of windows per chunk asked and dedupes them; the larger the limit, the more an
 * approximate index's misses among those windows can cost.
 */
import { openStore } from '../src/store/open-store.js';
import { createScratchStore, type StoreKind } from '../test/support/stores.js';
import { figure, type Figure } from './figures.js';
import { summarizeLatencies, type LatencySummary } from './latency.js';
import { exactNearest, rowOf, sampleWindows } from './synthetic-corpus.js';
import { DIMENSIONS, analyze, makeDataset, writeDataset } from './vector-search.js';
import { seededRandom } from '../test/support/seeded-random.js';

/** Windows per chunk: a 400-token chunk of the built-in model's layout has 3.6 on average, up to 5. */
const WINDOWS_PER_CHUNK = 4;
/** Noise norm of a window around its chunk: ≈ cosine 0.6 between two windows of one chunk. */
const WINDOW_NOISE = 0.8;
/** topK values measured: the API's default neighbourhood, hybrid's candidate depth, the API's maximum. */
const LIMITS = [10, 50, 100] as const;

export interface WindowRecallOptions {
  stores: readonly StoreKind[];
  chunks: number;
  queries: number;
  seed: number;
  log: (line: string) => void;
}

export interface WindowRecallCase {
  store: StoreKind;
  chunks: number;
  windows: number;
  byLimit: { limit: number; recall: Figure; latency: LatencySummary }[];
}

/** The exact best `limit` chunks by their best window: windows in score order, each chunk at its first. */
function exactMaxSim(windows: Float32Array, query: Float32Array, limit: number): number[] {
  const chunks = new Set<number>();
  for (const row of exactNearest(windows, DIMENSIONS, query, limit * WINDOWS_PER_CHUNK)) {
    chunks.add(Math.floor(row / WINDOWS_PER_CHUNK));
    if (chunks.size === limit) break;
  }
  return [...chunks];
}

export async function runWindowRecallBench(options: WindowRecallOptions): Promise<WindowRecallCase[]> {
  const { chunks, queries, seed, log } = options;
  log(`windows: ${chunks} chunks × ${WINDOWS_PER_CHUNK} windows, exact max-sim of ${queries} queries`);
  const data = makeDataset(chunks, queries, seed);
  const packed = sampleWindows(data.vectors, DIMENSIONS, WINDOWS_PER_CHUNK, WINDOW_NOISE, seededRandom(seed + 2));
  const maxLimit = Math.max(...LIMITS);
  const truth = Array.from({ length: queries }, (_, q) => exactMaxSim(packed, rowOf(data.queries, DIMENSIONS, q), maxLimit));
  const cases: WindowRecallCase[] = [];
  for (const kind of options.stores) {
    const scratch = await createScratchStore(kind);
    const store = await openStore(scratch.config, scratch.dataDir);
    try {
      log(`windows: ${kind}, writing`);
      const layout = await writeDataset(store, data, { perChunk: WINDOWS_PER_CHUNK, packed });
      if (scratch.config.kind === 'postgres') await analyze(scratch.config.url);
      // The first search builds the embedded store's graph; not timed.
      await store.search.vectorSearch(layout.scope, rowOf(data.queries, DIMENSIONS, 0), maxLimit);
      const byLimit = [];
      for (const limit of LIMITS) {
        const millis: number[] = [];
        let found = 0;
        for (let q = 0; q < queries; q += 1) {
          const start = performance.now();
          const hits = await store.search.vectorSearch(layout.scope, rowOf(data.queries, DIMENSIONS, q), limit);
          millis.push(performance.now() - start);
          const expected = new Set(truth[q]!.slice(0, limit));
          found += hits.filter((hit) => expected.has(layout.rowOfChunk.get(hit.chunkId) ?? -1)).length;
        }
        byLimit.push({ limit, recall: figure(found / (queries * limit), 'fraction'), latency: summarizeLatencies(millis) });
      }
      cases.push({ store: kind, chunks, windows: chunks * WINDOWS_PER_CHUNK, byLimit });
    } finally {
      await store.close();
      await scratch.drop();
    }
  }
  return cases;
}
