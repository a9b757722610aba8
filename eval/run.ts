/**
 * `npm run eval`: retrieval quality of Parley on a BEIR-style corpus, measured through the HTTP API.
 * See eval/README.md for the flags and what each metric means.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { measureAnswerCoverage, type AnswerCoverage } from './answer-coverage.js';
import { loadDataset } from './dataset.js';
import { startEvalParley, type EvalParley } from './eval-parley.js';
import { evaluateMode, summarize, type Cutoffs, type ModeMetrics, type QueryOutcome } from './evaluate-mode.js';
import { IngestCache, fingerprintOf } from './ingest-cache.js';
import { ingestCorpus, waitUntilSynched } from './ingest-corpus.js';
import { ParleyClient, type RetrievalMode } from './parley-client.js';
import { METRIC_NOTES, detailsOf, formatTable, hybridFailures, type Results, type RunConfig } from './report.js';

const REPO_ROOT = path.resolve(import.meta.dirname, '..');
const FIXTURES = path.resolve(import.meta.dirname, 'covid-qa');
const ALL_MODES: readonly RetrievalMode[] = ['vector', 'keyword', 'hybrid'];
/** Settings taken from the environment as they are, so a run can use a remote embedder, say. */
const PASSED_THROUGH = [
  'PARLEY_CHUNK_TOKENS',
  'PARLEY_CHUNK_OVERLAP_TOKENS',
  'PARLEY_EMBEDDINGS_URL',
  'PARLEY_EMBEDDINGS_MODEL',
  'PARLEY_EMBEDDINGS_API_KEY',
  'PARLEY_EMBEDDINGS_THREADS',
  'PARLEY_WORKER_CONCURRENCY',
];

const USAGE = `Usage: npm run eval -- [options]
  --corpus FILE        corpus JSON lines {_id, title, text}        (default: covid-qa corpus.jsonl)
  --queries FILE       queries JSON lines {_id, text, metadata.answers?}  (default: covid-qa queries-dev.jsonl)
  --qrels FILE         TSV query-id, corpus-id, score, header line (default: covid-qa qrels-dev.tsv)
  --store KIND         sqlite (default) or postgres (PARLEY_TEST_POSTGRES_URL, a scratch database dropped after)
  --chunk-tokens N     PARLEY_CHUNK_TOKENS for ingestion (default 400)
  --overlap N          PARLEY_CHUNK_OVERLAP_TOKENS (default 60)
  --keep DIR           keep the ingested SQLite data directory in DIR and reuse it while corpus, chunking,
                       embedder and ingestion code are unchanged
  --reingest           with --keep: ingest again even when the cache matches
  --ignore-code-changes
                       with --keep: reuse the cache although the ingestion code changed since
  --modes LIST         comma-separated subset of vector,keyword,hybrid (default: all three)
  --weights V,K        hybrid fusion weights of the vector and keyword engines (datastore vectorWeight,
                       keywordWeight), set for this run; default: the datastore's own
  --top-k N            hits asked per query and cutoff of recall/MRR (default 10)
  --limit N            evaluate only the first N queries (a quick check)
  --out FILE           results file (default eval/results.json)
  --details FILE       also write every query's outcome in every mode
  --help`;

interface Options {
  corpus: string;
  queries: string;
  qrels: string;
  store: 'sqlite' | 'postgres';
  chunkTokens?: string;
  overlap?: string;
  keep?: string;
  reingest: boolean;
  ignoreCodeChanges: boolean;
  modes: RetrievalMode[];
  weights?: { vectorWeight: number; keywordWeight: number };
  cutoffs: Cutoffs;
  limit?: number;
  out: string;
  details?: string;
}

class UsageError extends Error {}

function positiveInteger(flag: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new UsageError(`${flag} must be a positive integer, got "${raw}"`);
  return Number(raw);
}

function readOptions(argv: string[]): Options | undefined {
  const { values } = parseArgs({
    args: argv,
    options: {
      corpus: { type: 'string' },
      queries: { type: 'string' },
      qrels: { type: 'string' },
      store: { type: 'string', default: 'sqlite' },
      'chunk-tokens': { type: 'string' },
      overlap: { type: 'string' },
      keep: { type: 'string' },
      reingest: { type: 'boolean', default: false },
      'ignore-code-changes': { type: 'boolean', default: false },
      modes: { type: 'string' },
      weights: { type: 'string' },
      'top-k': { type: 'string' },
      limit: { type: 'string' },
      out: { type: 'string' },
      details: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return undefined;
  const store = values.store;
  if (store !== 'sqlite' && store !== 'postgres') throw new UsageError(`--store must be sqlite or postgres, got "${store}"`);
  if (values.keep !== undefined && store !== 'sqlite') throw new UsageError('--keep works with --store sqlite only');
  const modes = values.modes === undefined ? [...ALL_MODES] : values.modes.split(',').map((mode) => mode.trim());
  const unknown = modes.filter((mode) => !ALL_MODES.some((known) => known === mode));
  if (unknown.length > 0) throw new UsageError(`--modes: unknown ${unknown.join(', ')}; use ${ALL_MODES.join(', ')}`);
  const topK = positiveInteger('--top-k', values['top-k']) ?? 10;
  const weights = values.weights?.split(',').map(Number);
  if (weights !== undefined && (weights.length !== 2 || weights.some((weight) => !Number.isFinite(weight) || weight < 0))) {
    throw new UsageError(`--weights must be two non-negative numbers, vector,keyword; got "${values.weights}"`);
  }
  positiveInteger('--chunk-tokens', values['chunk-tokens']);
  positiveInteger('--overlap', values.overlap);
  return {
    corpus: path.resolve(values.corpus ?? path.join(FIXTURES, 'corpus.jsonl')),
    queries: path.resolve(values.queries ?? path.join(FIXTURES, 'queries-dev.jsonl')),
    qrels: path.resolve(values.qrels ?? path.join(FIXTURES, 'qrels-dev.tsv')),
    store,
    chunkTokens: values['chunk-tokens'],
    overlap: values.overlap,
    keep: values.keep === undefined ? undefined : path.resolve(values.keep),
    reingest: values.reingest,
    ignoreCodeChanges: values['ignore-code-changes'],
    modes: ALL_MODES.filter((mode) => modes.includes(mode)),
    weights: weights === undefined ? undefined : { vectorWeight: weights[0]!, keywordWeight: weights[1]! },
    cutoffs: { topK, answerK: Math.min(5, topK) },
    limit: positiveInteger('--limit', values.limit),
    out: path.resolve(values.out ?? path.join(import.meta.dirname, 'results.json')),
    details: values.details === undefined ? undefined : path.resolve(values.details),
  };
}

const log = (line: string) => console.error(`[eval] ${line}`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
/** Relative to the repository when near it (the fixtures sit beside it), absolute otherwise. */
const relative = (file: string) => {
  const near = path.relative(REPO_ROOT, file);
  return near.startsWith(`..${path.sep}..`) ? file : near;
};

function parleyEnv(options: Options): Record<string, string> {
  // Each mode asks the same queries: without this, modes after the first would time the query cache.
  // The evaluation asks hundreds of questions a minute with one key: rate limits would measure themselves.
  const env: Record<string, string> = { PARLEY_QUERY_CACHE_SIZE: '0', PARLEY_RATE_LIMIT_KEY_PER_MINUTE: '1000000' };
  for (const name of PASSED_THROUGH) {
    const value = process.env[name];
    if (value !== undefined && value !== '') env[name] = value;
  }
  if (options.chunkTokens !== undefined) env.PARLEY_CHUNK_TOKENS = options.chunkTokens;
  if (options.overlap !== undefined) env.PARLEY_CHUNK_OVERLAP_TOKENS = options.overlap;
  return env;
}

async function main(options: Options): Promise<void> {
  const dataset = await loadDataset(options);
  const queries = options.limit === undefined ? dataset.queries : dataset.queries.slice(0, options.limit);
  log(`${dataset.documents.length} documents, ${queries.length} queries` + (dataset.skippedQueries > 0 ? ` (${dataset.skippedQueries} with neither judgment nor answers skipped)` : ''));
  if (dataset.missingJudgedDocuments.length > 0) {
    log(`warning: ${dataset.missingJudgedDocuments.length} judged documents are not in the corpus, e.g. ${dataset.missingJudgedDocuments.slice(0, 5).join(', ')}`);
  }

  const env = parleyEnv(options);
  // Validated before anything starts; also gives the effective chunking for the cache and the results.
  const settings = loadConfig(env);
  const cache =
    options.keep === undefined
      ? undefined
      : await IngestCache.open(
          options.keep,
          await fingerprintOf({
            repoRoot: REPO_ROOT,
            corpusPath: options.corpus,
            chunkTokens: settings.ingestion.chunkTokens,
            chunkOverlapTokens: settings.ingestion.chunkOverlapTokens,
            embedder: settings.embeddings.url === null ? 'local' : `${settings.embeddings.url} ${settings.embeddings.model}`,
          }),
          { reingest: options.reingest, ignoreCodeChanges: options.ignoreCodeChanges },
        );
  if (cache !== undefined) {
    log(cache.state.kind === 'reuse' ? `reusing the ingested store in ${cache.dir}` : `ingesting into ${cache.dir} (${cache.state.reason})`);
    if (cache.state.kind === 'reuse' && cache.state.codeChanged) log('warning: the ingestion code changed since this store was ingested');
  }

  let parley: EvalParley | undefined;
  let restoreWeights: (() => Promise<void>) | undefined;
  /** Puts a kept store's weights back and stops Parley; safe to call twice (interrupt, then finally). */
  const shutdown = async () => {
    const restore = restoreWeights;
    restoreWeights = undefined;
    await restore?.().catch((error: unknown) => log(`could not restore the fusion weights: ${String(error)}`));
    await parley?.close();
  };
  const interrupt = () => {
    log('interrupted; stopping Parley');
    void shutdown().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupt);
  try {
    parley = await startEvalParley({ store: options.store, keepDir: cache?.dir, env });
    const client = new ParleyClient(parley.url, parley.key);

    let datastoreId: string;
    let ingestionMs: number | null;
    let expected: number;
    if (cache?.state.kind === 'reuse') {
      datastoreId = cache.state.manifest.datastoreId!;
      ingestionMs = cache.state.manifest.ingestionMs;
      expected = cache.state.manifest.documents;
      log(`ingestion skipped (cached; it took ${ingestionMs === null ? '?' : seconds(ingestionMs)} originally)`);
    } else {
      datastoreId = (await client.createDatastore('eval corpus')).id;
      const ingestion = await ingestCorpus(client, datastoreId, dataset.documents, log);
      ingestionMs = ingestion.ms;
      expected = ingestion.sent;
      await cache?.complete({ datastoreId, ingestionMs, documents: expected });
    }
    const datasources = await waitUntilSynched(client, datastoreId, expected, log);
    const chunks = datasources.reduce((total, datasource) => total + datasource.nbChunks, 0);
    if (cache?.state.kind !== 'reuse') {
      log(`ingestion: ${expected} documents, ${chunks} chunks in ${seconds(ingestionMs ?? 0)}`);
    }

    const original = await client.getDatastore(datastoreId);
    if (options.weights !== undefined) {
      await client.updateDatastore(datastoreId, options.weights);
      // A kept store goes back to its own weights, so the next run without --weights measures those.
      if (cache !== undefined) {
        const restore = { vectorWeight: original.vectorWeight, keywordWeight: original.keywordWeight };
        restoreWeights = () => client.updateDatastore(datastoreId, restore).then(() => undefined);
      }
    }
    const datastore = await client.getDatastore(datastoreId);
    const embeddingModel = [datastore.embeddingModel, datastore.embedding_model].find((value): value is string => typeof value === 'string');
    const fusionWeights =
      typeof datastore.vectorWeight === 'number' && typeof datastore.keywordWeight === 'number'
        ? { vector: datastore.vectorWeight, keyword: datastore.keywordWeight }
        : undefined;

    const coverage: AnswerCoverage | null = queries.some((query) => query.answers.length > 0)
      ? await measureAnswerCoverage(client, datasources, dataset.documents, queries)
      : null;

    const outcomes: Partial<Record<RetrievalMode, QueryOutcome[]>> = {};
    const metrics: Partial<Record<RetrievalMode, ModeMetrics>> = {};
    for (const mode of options.modes) {
      const started = performance.now();
      const step = Math.max(1, Math.ceil(queries.length / 4));
      outcomes[mode] = await evaluateMode(client, datastoreId, queries, mode, options.cutoffs, (done) => {
        if (done % step === 0 && done < queries.length) log(`${mode}: ${done}/${queries.length}`);
      });
      metrics[mode] = summarize(outcomes[mode], options.cutoffs);
      log(`${mode}: ${queries.length} queries in ${seconds(performance.now() - started)}`);
    }

    const config: RunConfig = {
      corpus: relative(options.corpus),
      queries: relative(options.queries),
      qrels: relative(options.qrels),
      documents: dataset.documents.length,
      evaluatedQueries: queries.length,
      skippedQueries: dataset.skippedQueries,
      store: options.store,
      chunking: { tokens: parley.config.ingestion.chunkTokens, overlapTokens: parley.config.ingestion.chunkOverlapTokens },
      ...(embeddingModel === undefined ? {} : { embeddingModel }),
      ...(fusionWeights === undefined ? {} : { fusionWeights }),
      cutoffs: options.cutoffs,
      modes: options.modes,
      ingestion: {
        ms: ingestionMs === null ? null : Math.round(ingestionMs),
        cached: cache?.state.kind === 'reuse',
        ...(cache?.state.kind === 'reuse' && cache.state.codeChanged ? { codeChangedSince: true } : {}),
        chunks,
      },
    };
    const results: Results = {
      generatedAt: new Date().toISOString(),
      config,
      notes: METRIC_NOTES(options.cutoffs),
      answerCoverage: coverage,
      metrics,
      hybridFailures: outcomes.hybrid === undefined ? [] : hybridFailures(queries, outcomes.hybrid, options.cutoffs),
    };
    await fs.writeFile(options.out, JSON.stringify(results, null, 2) + '\n');
    if (options.details !== undefined) await fs.writeFile(options.details, JSON.stringify(detailsOf(queries, outcomes), null, 2) + '\n');

    const { topK, answerK } = options.cutoffs;
    const chunking = `${chunks} chunks (${config.chunking.tokens}/${config.chunking.overlapTokens} tokens)`;
    const fusion = fusionWeights === undefined ? '' : `, fusion weights vector ${fusionWeights.vector} / keyword ${fusionWeights.keyword}`;
    console.log(`\n${relative(options.corpus)}: ${config.documents} documents, ${chunking}, store ${options.store}${fusion}`);
    console.log(`ingestion: ${ingestionMs === null ? '?' : seconds(ingestionMs)}${config.ingestion.cached ? ' (cached)' : ''}`);
    console.log(`queries: ${queries.length} (${metrics[options.modes[0]!]?.judgedQueries ?? 0} judged, ${metrics[options.modes[0]!]?.answeredQueries ?? 0} with answers)\n`);
    console.log(formatTable(metrics, options.cutoffs));
    console.log(
      `\nR@${topK}, docMRR@${topK}: judged article among the DISTINCT documents of the top ${topK} hits (headline MRR); ` +
        `hitMRR@${topK}: rank counted over raw hits (chunks).`,
    );
    console.log(`ans@${answerK}: an answer string in a top-${answerK} hit, whitespace-normalised, case-insensitive (cs: case-sensitive).`);
    if (coverage !== null) {
      console.log(
        `answer ceilings: in the judged article ${fixedShare(coverage.inDocument)}, whole inside one chunk of it ${fixedShare(coverage.inOneChunk)}`,
      );
    }
    console.log(`\nwrote ${relative(options.out)}${options.details === undefined ? '' : ` and ${relative(options.details)}`}`);
  } finally {
    process.removeListener('SIGINT', interrupt);
    await shutdown();
  }
}

const fixedShare = (value: number) => (Number.isNaN(value) ? '–' : value.toFixed(3));

try {
  const options = readOptions(process.argv.slice(2));
  if (options === undefined) console.log(USAGE);
  else await main(options);
} catch (error) {
  if (error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
    console.error(`${error.message}\n\n${USAGE}`);
    process.exitCode = 2;
  } else {
    console.error(error);
    process.exitCode = 1;
  }
}
