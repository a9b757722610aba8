/**
 * The query endpoint end to end over loopback, per mode, against the embedder's `embedQuery` alone on
 * the same queries. The calls are interleaved query by query (baseline, hybrid, vector, keyword), so a
 * slow patch of the shared machine weighs on every column alike.
 */
import { readQueries } from './covid-qa-fixture.js';
import { CpuMeter, type CpuFigures } from './cpu-meter.js';
import { figure, ms, ratio, type Figure } from './figures.js';
import { expectOk } from './in-process-parley.js';
import type { IngestedDatastore } from './ingestion.js';
import { percentile, summarizeLatencies, type LatencySummary } from './latency.js';

export const QUERY_MODES = ['hybrid', 'vector', 'keyword'] as const;
export type QueryMode = (typeof QUERY_MODES)[number];

export interface QueryOptions {
  queries: number;
  topK: number;
}

export interface ModeResult {
  latency: LatencySummary;
  /** p50 of the endpoint / p50 of embedQuery alone. */
  p50OverEmbedQuery: Figure;
  /** Endpoint p50 minus embedQuery p50: what HTTP, search and fusion add. */
  p50Overhead: Figure;
  meanHits: Figure;
}

/** The store's share of a query, timed directly (no HTTP), on the same queries: where the time goes. */
export interface QueryBreakdown {
  /** k = 50: the depth hybrid mode asks each engine for at small topK. */
  vectorSearchHybridDepth: LatencySummary;
  vectorSearchTopK: LatencySummary;
  keywordSearchHybridDepth: LatencySummary;
  /** Texts of the union of both engines' 50 hits (hybrid mode loads them to score lexical proximity). */
  detailsOfCandidates: LatencySummary;
  meanCandidates: Figure;
}

export interface QueryResult {
  queries: number;
  topK: number;
  chunksInDatastore: number;
  /** The very first query: opens the index (the embedded store builds its HNSW graph here). */
  firstQuery: Figure;
  embedQuery: LatencySummary;
  modes: Record<QueryMode, ModeResult>;
  breakdown: QueryBreakdown;
  /** Contention over the timed loop. */
  cpu: CpuFigures;
}

export async function runQueryBench({ parley, datastoreId, chunks }: IngestedDatastore, options: QueryOptions): Promise<QueryResult> {
  const queries = readQueries().slice(0, options.queries);
  const embedder = await parley.core.embedder();
  const path = `/datastores/${datastoreId}/query`;
  const ask = async (query: string, mode: QueryMode): Promise<{ millis: number; hits: number }> => {
    const start = performance.now();
    const response = await parley.call('POST', path, { query, topK: options.topK, mode });
    const millis = performance.now() - start;
    const body = expectOk(`POST ${path}`, response);
    if (!Array.isArray(body)) throw new Error('the query endpoint answered something else than a list');
    return { millis, hits: body.length };
  };

  const firstStart = performance.now();
  await ask('warm up the index', 'hybrid');
  const firstQuery = performance.now() - firstStart;
  // A few more rounds so JIT and connection reuse settle before timing.
  for (const query of queries.slice(0, 5)) for (const mode of QUERY_MODES) await ask(query, mode);

  const store = parley.core.store;
  const workspaceId = await store.datastores.ownerOf(datastoreId);
  if (workspaceId === undefined) throw new Error(`datastore ${datastoreId} is gone`);
  const scope = { workspaceId, datastoreIds: [datastoreId] };
  const depth = 50;
  const parts = { vectorDepth: [] as number[], vectorTopK: [] as number[], keywordDepth: [] as number[], details: [] as number[] };
  let candidates = 0;
  const time = async <T>(into: number[], task: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    const result = await task();
    into.push(performance.now() - start);
    return result;
  };

  const cpu = new CpuMeter().start();
  const embedMillis: number[] = [];
  const millis: Record<QueryMode, number[]> = { hybrid: [], vector: [], keyword: [] };
  const hits: Record<QueryMode, number> = { hybrid: 0, vector: 0, keyword: 0 };
  for (const query of queries) {
    const embedStart = performance.now();
    const vector = await embedder.embedQuery(query);
    embedMillis.push(performance.now() - embedStart);
    const vectorHits = await time(parts.vectorDepth, () => store.search.vectorSearch(scope, vector, depth));
    await time(parts.vectorTopK, () => store.search.vectorSearch(scope, vector, options.topK));
    const keywordHits = await time(parts.keywordDepth, () => store.search.keywordSearch(scope, query, depth));
    const ids = [...new Set([...vectorHits, ...keywordHits].map((hit) => hit.chunkId))];
    candidates += ids.length;
    await time(parts.details, () => store.search.details(workspaceId, ids));
    for (const mode of QUERY_MODES) {
      const answer = await ask(query, mode);
      millis[mode].push(answer.millis);
      hits[mode] += answer.hits;
    }
  }

  const cpuFigures = cpu.stop();
  const embedP50 = percentile(embedMillis, 50);
  const modeResult = (mode: QueryMode): ModeResult => {
    const p50 = percentile(millis[mode], 50);
    return {
      latency: summarizeLatencies(millis[mode]),
      p50OverEmbedQuery: ratio(p50, embedP50),
      p50Overhead: ms(p50 - embedP50),
      meanHits: figure(hits[mode] / queries.length, 'hits'),
    };
  };
  return {
    queries: queries.length,
    topK: options.topK,
    chunksInDatastore: chunks,
    firstQuery: ms(firstQuery),
    embedQuery: summarizeLatencies(embedMillis),
    modes: { hybrid: modeResult('hybrid'), vector: modeResult('vector'), keyword: modeResult('keyword') },
    breakdown: {
      vectorSearchHybridDepth: summarizeLatencies(parts.vectorDepth),
      vectorSearchTopK: summarizeLatencies(parts.vectorTopK),
      keywordSearchHybridDepth: summarizeLatencies(parts.keywordDepth),
      detailsOfCandidates: summarizeLatencies(parts.details),
      meanCandidates: figure(candidates / queries.length, 'chunks'),
    },
    cpu: cpuFigures,
  };
}
