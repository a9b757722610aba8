/**
 * Throughput and query latency of the built-in local embedder.
 * Run: npx tsx bench/embedder.ts [corpus.jsonl] [queries.jsonl]
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { LocalEmbedder } from '../src/llm/embeddings/local-embedder.js';
import { COVID_QA_DIR } from './covid-qa-fixture.js';

const corpusFile = process.argv[2] ?? path.join(COVID_QA_DIR, 'corpus.jsonl');
const queriesFile = process.argv[3] ?? path.join(COVID_QA_DIR, 'queries-dev.jsonl');
const PASSAGES = 200;
const PASSAGE_WORDS = 300;

function readJsonLines(file: string): Array<Record<string, unknown>> {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** ~300-word passages cut from the articles, a few from each so the text varies. */
function loadPassages(): string[] {
  const passages: string[] = [];
  for (const doc of readJsonLines(corpusFile)) {
    const words = String(doc.text ?? '')
      .split(/\s+/)
      .filter(Boolean);
    for (let i = 0; i + PASSAGE_WORDS <= words.length && i < 3 * PASSAGE_WORDS; i += PASSAGE_WORDS) {
      passages.push(words.slice(i, i + PASSAGE_WORDS).join(' '));
    }
  }
  return passages.slice(0, PASSAGES);
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface Row {
  threads: number;
  batchSize: number;
  queryThread: boolean;
  passagesPerSecond: number;
  idleP50Ms: number;
  idleP99Ms: number;
  loadedP50Ms: number;
  loadedP99Ms: number;
  loadedQueries: number;
  /** Whole process (main thread + workers) after the runs. */
  rssMB: number;
}

async function measure(threads: number, batchSize: number, queryThread: boolean, passages: string[], queries: string[]): Promise<Row> {
  const embedder = new LocalEmbedder({ threads, batchSize, queryThread });
  try {
    await embedder.warmUp();

    const idle: number[] = [];
    for (const query of queries.slice(0, 40)) {
      const start = performance.now();
      await embedder.embedQuery(query);
      idle.push(performance.now() - start);
    }

    const start = performance.now();
    await embedder.embedDocuments(passages);
    const passagesPerSecond = passages.length / ((performance.now() - start) / 1000);

    // Queries at random moments while another full ingestion runs.
    const loaded: number[] = [];
    let ingesting = true;
    const ingestion = embedder.embedDocuments(passages).finally(() => (ingesting = false));
    for (let i = 0; ingesting; i++) {
      await sleep(50 + Math.random() * 150);
      if (!ingesting) break;
      const queryStart = performance.now();
      await embedder.embedQuery(queries[i % queries.length] ?? 'query');
      loaded.push(performance.now() - queryStart);
    }
    await ingestion;

    return {
      threads,
      batchSize,
      queryThread,
      passagesPerSecond,
      idleP50Ms: percentile(idle, 50),
      idleP99Ms: percentile(idle, 99),
      loadedP50Ms: percentile(loaded, 50),
      loadedP99Ms: percentile(loaded, 99),
      loadedQueries: loaded.length,
      rssMB: process.memoryUsage().rss / 1e6,
    };
  } finally {
    await embedder.close();
  }
}

const passages = loadPassages();
const queries = readJsonLines(queriesFile).map((q) => String(q.text ?? ''));
const cores = availableParallelism();
const avgWords = passages.reduce((sum, p) => sum + p.split(/\s+/).length, 0) / passages.length;
console.log(`${passages.length} passages of ~${avgWords.toFixed(0)} words, ${cores} cores\n`);

const runs: Array<[threads: number, batchSize: number, queryThread: boolean]> = [
  [1, 8, false],
  [cores, 8, false],
  [cores, 4, false],
  [cores, 16, false],
  [cores, 8, true],
];
const rows: Row[] = [];
for (const [threads, batchSize, queryThread] of runs) {
  rows.push(await measure(threads, batchSize, queryThread, passages, queries));
}

const cell = (value: string | number, width: number): string => String(value).padStart(width);
console.log('threads  batch  query thread  passages/s  idle p50  idle p99  loaded p50  loaded p99  RSS MB   (latencies in ms)');
for (const r of rows) {
  console.log(
    [
      cell(r.threads, 7),
      cell(r.batchSize, 5),
      cell(r.queryThread ? 'yes' : 'no', 12),
      cell(r.passagesPerSecond.toFixed(1), 10),
      cell(r.idleP50Ms.toFixed(0), 8),
      cell(r.idleP99Ms.toFixed(0), 8),
      cell(r.loadedP50Ms.toFixed(0), 10),
      cell(r.loadedP99Ms.toFixed(0), 10),
      cell(r.rssMB.toFixed(0), 6),
    ].join('  '),
  );
}
console.log(`\n${JSON.stringify({ passages: passages.length, cores, rows }, null, 2)}`);
