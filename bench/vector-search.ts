/**
 * Vector and keyword search through the store layer, on synthetic chunks written as the ingestion job
 * writes them (`writeIndex`, one transaction per datasource). Recall is measured against exact search
 * computed here over the same vectors.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { openStore } from '../src/store/open-store.js';
import type { DatasourceRecord, NewChunk, SearchScope, Store } from '../src/store/store.js';
import { createScratchStore, type StoreKind } from '../test/support/stores.js';
import { CpuMeter, type CpuFigures } from './cpu-meter.js';
import { figure, goal, megabytes, seconds, type Figure, type Goal } from './figures.js';
import { summarizeLatencies, type LatencySummary } from './latency.js';
import { clusterModel, exactNearest, makeVocabulary, rowOf, sampleText, sampleVectors, zipfSampler } from './synthetic-corpus.js';
import { seededRandom } from '../test/support/seeded-random.js';
import { datastoreRecord, indexed } from '../test/support/store-contract.js';

/** The local embedder's vector length. */
export const DIMENSIONS = 512;
const CLUSTERS = 200;
/** Noise norm around a centre: ≈ cosine 0.7 between a point and its centre, 0.5 between cluster mates. */
const NOISE = 1;
const K = 10;
/** Datasources per datastore: one of them is the ~1% filter. */
const DATASOURCES = 100;
const WORDS_PER_CHUNK = 60;
const VOCABULARY = 20_000;

export interface VectorSearchOptions {
  /** Chunk counts to measure, per store. */
  sizes: Partial<Record<StoreKind, readonly number[]>>;
  queries: number;
  seed: number;
  /** Log progress lines to stderr. */
  log: (line: string) => void;
}

export interface SearchFigures {
  latency: LatencySummary;
  recallAt10: Figure;
  /** Share of queries that got all 10 hits. */
  fullAnswers: Figure;
}

export interface VectorSearchCase {
  store: StoreKind;
  chunks: number;
  dimensions: number;
  /** All `writeIndex` calls (pgvector maintains its HNSW index during these inserts). */
  write: Figure;
  writeRate: Figure;
  /**
   * The first search: the embedded store builds its in-process HNSW graph here; PostgreSQL reads a
   * cold index.
   */
  firstSearch: Figure;
  /**
   * PostgreSQL only: unfiltered vector search right after the bulk write, before statistics exist
   * (autovacuum analyzes later). `vector` and the rest are measured after an explicit ANALYZE.
   */
  vectorBeforeAnalyze: LatencySummary | null;
  vector: SearchFigures;
  /** `datasourceIds` filter matching one datasource of 100 (~1% of chunks). */
  filtered: SearchFigures & { selectivity: Figure };
  keyword: { latency: LatencySummary; meanHits: Figure };
  /** Contention during the timed searches (for PostgreSQL the server's own work counts as "others"). */
  cpu: CpuFigures;
  /** This process after the searches (holds the test vectors too, and the HNSW graph for SQLite). */
  rssAfter: Figure;
  goals: Goal[];
}

export interface Dataset {
  chunks: number;
  vectors: Float32Array;
  texts: string[];
  queries: Float32Array;
  keywordQueries: string[];
  /** Exact top 10 of each query, as rows. */
  truth: number[][];
  /** Exact top 10 of query i among the rows of datasource i % DATASOURCES. */
  filteredTruth: number[][];
}

const rowsOfDatasource = (source: number, chunks: number): number[] => {
  const per = chunks / DATASOURCES;
  return Array.from({ length: per }, (_, i) => source * per + i);
};

export function makeDataset(chunks: number, queries: number, seed: number): Dataset {
  if (chunks % DATASOURCES !== 0) throw new Error(`sizes must be multiples of ${DATASOURCES}, got ${chunks}`);
  const random = seededRandom(seed);
  const model = clusterModel(DIMENSIONS, CLUSTERS, NOISE, random);
  // Rows get random clusters, so a datasource filter is uncorrelated with where vectors lie (the hard case).
  const vectors = sampleVectors(model, chunks, random);
  const queryVectors = sampleVectors(model, queries, seededRandom(seed + 1));
  const vocabulary = makeVocabulary(VOCABULARY, random);
  const word = zipfSampler(VOCABULARY, 1, random);
  const texts = Array.from({ length: chunks }, () => sampleText(vocabulary, word, WORDS_PER_CHUNK));
  const keywordQueries = Array.from({ length: queries }, () => sampleText(vocabulary, word, 2 + Math.floor(random() * 3)));
  const truth: number[][] = [];
  const filteredTruth: number[][] = [];
  for (let q = 0; q < queries; q += 1) {
    const query = rowOf(queryVectors, DIMENSIONS, q);
    truth.push(exactNearest(vectors, DIMENSIONS, query, K));
    filteredTruth.push(exactNearest(vectors, DIMENSIONS, query, K, rowsOfDatasource(q % DATASOURCES, chunks)));
  }
  return { chunks, vectors, texts, queries: queryVectors, keywordQueries, truth, filteredTruth };
}

export interface Layout {
  scope: SearchScope;
  datasourceIds: string[];
  /** Chunk id → dataset row. */
  rowOfChunk: Map<string, number>;
}

/** Each chunk embedded as `perChunk` window vectors (packed, chunk after chunk) instead of its one vector. */
export interface WindowVectors {
  perChunk: number;
  packed: Float32Array;
}

/** Workspace, datastore and datasources rows, then every datasource's chunks through `writeIndex`. */
export async function writeDataset(store: Store, data: Dataset, windows?: WindowVectors): Promise<Layout> {
  const at = new Date().toISOString();
  const workspaceId = randomUUID();
  const datastoreId = randomUUID();
  await store.workspaces.create({ id: workspaceId, name: 'bench', createdAt: at });
  await store.datastores.create(
    datastoreRecord(workspaceId, { id: datastoreId, name: 'synthetic', vectorWeight: 1, vectorWindows: windows !== undefined }),
  );
  const rowOfChunk = new Map<string, number>();
  const datasourceIds: string[] = [];
  for (let source = 0; source < DATASOURCES; source += 1) {
    const id = randomUUID();
    datasourceIds.push(id);
    const record: DatasourceRecord = {
      id,
      workspaceId,
      datastoreId,
      type: 'text',
      name: `synthetic ${source}`,
      status: 'running',
      customId: `source-${source}`,
      groupId: null,
      config: { kind: 'text' },
      fileKey: null,
      mimeType: 'text/plain',
      sizeBytes: null,
      contentKey: null,
      error: null,
      progress: 0,
      nbChunks: 0,
      textSize: 0,
      totalPages: null,
      generation: 1,
      lastSynch: null,
      createdAt: at,
      updatedAt: at,
    };
    // A job row is part of creating a datasource; nothing runs this kind.
    await store.datasources.create(record, { id: randomUUID(), kind: 'bench-noop', workspaceId, payload: {}, maxAttempts: 1 });
    const rows = rowsOfDatasource(source, data.chunks);
    const chunks: NewChunk[] = rows.map((row, ordinal) => {
      rowOfChunk.set(`${id}.1.${ordinal}`, row);
      return {
        ordinal,
        text: data.texts[row]!,
        source: record.name,
        pageNumber: null,
        tokens: WORDS_PER_CHUNK,
        vectors:
          windows === undefined
            ? [rowOf(data.vectors, DIMENSIONS, row)]
            : Array.from({ length: windows.perChunk }, (_, window) => rowOf(windows.packed, DIMENSIONS, row * windows.perChunk + window)),
      };
    });
    const outcome = await store.datasources.writeIndex(
      workspaceId,
      id,
      1,
      indexed(chunks, {
        embeddingModel: 'bench:synthetic-512',
        vectorLayout: windows === undefined ? 'whole' : `windows:synthetic-${windows.perChunk}`,
        embeddingDimensions: DIMENSIONS,
      }),
    );
    if (outcome !== 'written') throw new Error(`writeIndex answered ${outcome}`);
  }
  return { scope: { workspaceId, datastoreIds: [datastoreId] }, datasourceIds, rowOfChunk };
}

async function measureVector(store: Store, layout: Layout, data: Dataset, filtered: boolean, limit = data.truth.length): Promise<SearchFigures> {
  const millis: number[] = [];
  let found = 0;
  let full = 0;
  const count = Math.min(limit, data.truth.length);
  for (let q = 0; q < count; q += 1) {
    const scope: SearchScope = filtered ? { ...layout.scope, datasourceIds: [layout.datasourceIds[q % DATASOURCES]!] } : layout.scope;
    const query = rowOf(data.queries, DIMENSIONS, q);
    const start = performance.now();
    const hits = await store.search.vectorSearch(scope, query, K);
    millis.push(performance.now() - start);
    const truth = new Set((filtered ? data.filteredTruth : data.truth)[q]);
    found += hits.filter((hit) => truth.has(layout.rowOfChunk.get(hit.chunkId) ?? -1)).length;
    if (hits.length === K) full += 1;
  }
  return {
    latency: summarizeLatencies(millis),
    recallAt10: figure(found / (count * K), 'fraction'),
    fullAnswers: figure(full / count, 'fraction'),
  };
}

async function measureKeyword(store: Store, layout: Layout, data: Dataset) {
  const millis: number[] = [];
  let hits = 0;
  for (const query of data.keywordQueries) {
    const start = performance.now();
    hits += (await store.search.keywordSearch(layout.scope, query, K)).length;
    millis.push(performance.now() - start);
  }
  return { latency: summarizeLatencies(millis), meanHits: figure(hits / data.keywordQueries.length, 'hits') };
}

/** Planner statistics for the freshly written tables, as autovacuum would gather a little later. */
export async function analyze(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}

async function runCase(kind: StoreKind, data: Dataset, log: (line: string) => void): Promise<VectorSearchCase> {
  const scratch = await createScratchStore(kind);
  const store = await openStore(scratch.config, scratch.dataDir);
  try {
    log(`${kind} ${data.chunks}: writing chunks`);
    const writeStart = performance.now();
    const layout = await writeDataset(store, data);
    const writeMs = performance.now() - writeStart;

    log(`${kind} ${data.chunks}: first search (${kind === 'sqlite' ? 'builds the HNSW graph' : 'cold index'})`);
    const firstStart = performance.now();
    await store.search.vectorSearch(layout.scope, rowOf(data.queries, DIMENSIONS, 0), K);
    const firstMs = performance.now() - firstStart;
    // A few warm-up rounds of each kind, so timing starts with compiled code and a warm cache.
    for (let q = 0; q < 5; q += 1) {
      await store.search.vectorSearch(layout.scope, rowOf(data.queries, DIMENSIONS, q), K);
      await store.search.vectorSearch({ ...layout.scope, datasourceIds: [layout.datasourceIds[q]!] }, rowOf(data.queries, DIMENSIONS, q), K);
      await store.search.keywordSearch(layout.scope, data.keywordQueries[q]!, K);
    }

    let vectorBeforeAnalyze: LatencySummary | null = null;
    if (scratch.config.kind === 'postgres') {
      vectorBeforeAnalyze = (await measureVector(store, layout, data, false, 30)).latency;
      log(`postgres ${data.chunks}: vector p50 before ANALYZE ${vectorBeforeAnalyze.p50.value} ms; analyzing`);
      await analyze(scratch.config.url);
      await store.search.vectorSearch(layout.scope, rowOf(data.queries, DIMENSIONS, 0), K);
    }

    log(`${kind} ${data.chunks}: searching`);
    const cpu = new CpuMeter().start();
    const vector = await measureVector(store, layout, data, false);
    const filtered = await measureVector(store, layout, data, true);
    const keyword = await measureKeyword(store, layout, data);
    const cpuFigures = cpu.stop();
    const embedded = kind === 'sqlite' && data.chunks >= 100_000;
    return {
      store: kind,
      chunks: data.chunks,
      dimensions: DIMENSIONS,
      write: seconds(writeMs / 1000),
      writeRate: figure(data.chunks / (writeMs / 1000), 'chunks/s'),
      firstSearch: seconds(firstMs / 1000),
      vectorBeforeAnalyze,
      vector,
      filtered: { ...filtered, selectivity: figure(1 / DATASOURCES, 'fraction') },
      keyword,
      cpu: cpuFigures,
      rssAfter: megabytes(process.memoryUsage.rss()),
      goals: embedded
        ? [
            goal('vector p50 ≤ 5 ms (embedded store, 100k)', vector.latency.p50.value <= 5),
            goal('recall@10 ≥ 0.95 (embedded store, 100k)', vector.recallAt10.value >= 0.95),
          ]
        : [],
    };
  } finally {
    await store.close();
    await scratch.drop();
  }
}

export async function runVectorSearchBench(options: VectorSearchOptions): Promise<VectorSearchCase[]> {
  const cases: VectorSearchCase[] = [];
  const plan = Object.entries(options.sizes) as [StoreKind, readonly number[]][];
  const sizes = [...new Set(plan.flatMap(([, sizes]) => sizes))].sort((a, b) => a - b);
  for (const size of sizes) {
    options.log(`vector ${size}: generating data and exact answers`);
    // The same data (same seed) for every store, so their figures compare.
    const data = makeDataset(size, options.queries, options.seed);
    for (const [kind, wanted] of plan) if (wanted.includes(size)) cases.push(await runCase(kind, data, options.log));
  }
  return cases;
}
