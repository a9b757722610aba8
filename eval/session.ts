/**
 * What the evaluation scripts (`run.ts`, `cross-validate.ts`) share: the data and store flags, and Parley
 * started in-process on an ingested corpus (a scratch store, or a kept one reused while it matches).
 */
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { loadDataset, type Dataset, type EvalQuery } from './dataset.js';
import { startEvalParley, type EvalParley } from './eval-parley.js';
import type { Cutoffs } from './evaluate-mode.js';
import { IngestCache, fingerprintOf } from './ingest-cache.js';
import { ingestCorpus, waitUntilSynched } from './ingest-corpus.js';
import { ParleyClient, type Datasource } from './parley-client.js';
import type { DataConfig } from './report.js';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..');
const FIXTURES = path.resolve(import.meta.dirname, 'covid-qa');

/** Settings taken from the environment as they are, so a run can use a remote embedder, say. */
const PASSED_THROUGH = [
  'PARLEY_CHUNK_TOKENS',
  'PARLEY_CHUNK_OVERLAP_TOKENS',
  'PARLEY_EMBEDDINGS_URL',
  'PARLEY_EMBEDDINGS_MODEL',
  'PARLEY_EMBEDDINGS_API_KEY',
  'PARLEY_EMBEDDINGS_THREADS',
  'PARLEY_WORKER_CONCURRENCY',
  // The harness allows only loopback connections; a run against a remote embedder opens it for that host.
  'PARLEY_OUTBOUND_ALLOW',
];

/** A bad command line: printed with the usage, exit code 2. */
export class UsageError extends Error {}

export function positiveInteger(flag: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new UsageError(`${flag} must be a positive integer, got "${raw}"`);
  return Number(raw);
}

/** The data and store flags, for `parseArgs` (spread beside a script's own). */
export const DATA_FLAGS = {
  corpus: { type: 'string' },
  queries: { type: 'string' },
  qrels: { type: 'string' },
  store: { type: 'string', default: 'sqlite' },
  'chunk-tokens': { type: 'string' },
  overlap: { type: 'string' },
  keep: { type: 'string' },
  reingest: { type: 'boolean', default: false },
  'ignore-code-changes': { type: 'boolean', default: false },
  'top-k': { type: 'string' },
  limit: { type: 'string' },
  help: { type: 'boolean', default: false },
} as const;

/** Usage lines of the data and store flags. */
export const DATA_USAGE = `  --corpus FILE        corpus JSON lines {_id, title, text}        (default: covid-qa corpus.jsonl)
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
  --top-k N            hits asked per query and cutoff of recall/MRR (default 10)
  --limit N            evaluate only the first N queries (a quick check)`;

export interface DataOptions {
  corpus: string;
  queries: string;
  qrels: string;
  store: 'sqlite' | 'postgres';
  chunkTokens?: string;
  overlap?: string;
  keep?: string;
  reingest: boolean;
  ignoreCodeChanges: boolean;
  cutoffs: Cutoffs;
  limit?: number;
}

/** What `parseArgs` gives for DATA_FLAGS. */
interface DataFlagValues {
  corpus?: string;
  queries?: string;
  qrels?: string;
  store: string;
  'chunk-tokens'?: string;
  overlap?: string;
  keep?: string;
  reingest: boolean;
  'ignore-code-changes': boolean;
  'top-k'?: string;
  limit?: string;
}

export function readDataOptions(values: DataFlagValues): DataOptions {
  const store = values.store;
  if (store !== 'sqlite' && store !== 'postgres') throw new UsageError(`--store must be sqlite or postgres, got "${store}"`);
  if (values.keep !== undefined && store !== 'sqlite') throw new UsageError('--keep works with --store sqlite only');
  const topK = positiveInteger('--top-k', values['top-k']) ?? 10;
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
    cutoffs: { topK, answerK: Math.min(5, topK) },
    limit: positiveInteger('--limit', values.limit),
  };
}

/**
 * Runs a script's `main` on the options `read` makes of the command line; `read` returns undefined for
 * --help. A usage error prints the usage and exits with 2, any other error exits with 1.
 */
export async function runCli<T>(usage: string, read: (argv: string[]) => T | undefined, main: (options: T) => Promise<void>): Promise<void> {
  try {
    const options = read(process.argv.slice(2));
    if (options === undefined) console.log(usage);
    else await main(options);
  } catch (error) {
    if (error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
      console.error(`${error.message}\n\n${usage}`);
      process.exitCode = 2;
    } else {
      console.error(error);
      process.exitCode = 1;
    }
  }
}

export const log = (line: string) => console.error(`[eval] ${line}`);
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
/** Relative to the repository when near it (the fixtures sit beside it), absolute otherwise. */
export const relative = (file: string) => {
  const near = path.relative(REPO_ROOT, file);
  return near.startsWith(`..${path.sep}..`) ? file : near;
};

/** The dataset and the queries to evaluate (the first `--limit`), with what was skipped logged. */
export async function loadQueries(options: DataOptions): Promise<{ dataset: Dataset; queries: EvalQuery[] }> {
  const dataset = await loadDataset(options);
  const queries = options.limit === undefined ? dataset.queries : dataset.queries.slice(0, options.limit);
  log(
    `${dataset.documents.length} documents, ${queries.length} queries` +
      (dataset.skippedQueries > 0 ? ` (${dataset.skippedQueries} with neither judgment nor answers skipped)` : ''),
  );
  if (dataset.missingJudgedDocuments.length > 0) {
    log(
      `warning: ${dataset.missingJudgedDocuments.length} judged documents are not in the corpus, e.g. ${dataset.missingJudgedDocuments.slice(0, 5).join(', ')}`,
    );
  }
  return { dataset, queries };
}

/**
 * PARLEY_* settings of the in-process Parley. The query-vector cache is off unless `queryCacheSize` is
 * given: each mode asks the same queries, and later modes would otherwise time the cache.
 */
function parleyEnv(options: DataOptions, queryCacheSize: number): Record<string, string> {
  // The evaluation asks hundreds of questions a minute with one key: rate limits would measure themselves.
  const env: Record<string, string> = { PARLEY_QUERY_CACHE_SIZE: String(queryCacheSize), PARLEY_RATE_LIMIT_KEY_PER_MINUTE: '1000000' };
  for (const name of PASSED_THROUGH) {
    const value = process.env[name];
    if (value !== undefined && value !== '') env[name] = value;
  }
  if (options.chunkTokens !== undefined) env.PARLEY_CHUNK_TOKENS = options.chunkTokens;
  if (options.overlap !== undefined) env.PARLEY_CHUNK_OVERLAP_TOKENS = options.overlap;
  return env;
}

/** The datastore fields of the hybrid fusion weights, as PATCH /datastores/{id} takes them. */
export type FusionWeightsChange = { vectorWeight: number; keywordWeight: number };

/** Parley running on the ingested corpus, ready for queries. */
export interface EvalSession {
  parley: EvalParley;
  client: ParleyClient;
  datastoreId: string;
  datasources: Datasource[];
  /** The datastore's fusion weights before this run changed them, when the API exposes them. */
  originalWeights: { vector: number; keyword: number } | undefined;
  /**
   * Sets the datastore's fusion weights; a kept store gets its own back when the session ends, so the
   * next run measures those.
   */
  setWeights(weights: FusionWeightsChange): Promise<void>;
  /** The embedding model and the fusion weights, as the datastore shows them now (when the API exposes them). */
  describeDatastore(): Promise<{ embeddingModel?: string; fusionWeights?: { vector: number; keyword: number } }>;
  /** The data, store, chunking and ingestion part of a results file's configuration. */
  dataConfig(evaluatedQueries: number): DataConfig;
}

const weightsOf = (datastore: Record<string, unknown>) =>
  typeof datastore.vectorWeight === 'number' && typeof datastore.keywordWeight === 'number'
    ? { vector: datastore.vectorWeight, keyword: datastore.keywordWeight }
    : undefined;

/**
 * Starts Parley on the corpus, ingested through the API (or reused from `--keep`), runs `body`, then puts
 * a kept store's weights back and stops Parley, also on Ctrl-C.
 */
export async function withEvalSession(
  options: DataOptions,
  dataset: Dataset,
  body: (session: EvalSession) => Promise<void>,
  settings: { queryCacheSize?: number } = {},
): Promise<void> {
  const env = parleyEnv(options, settings.queryCacheSize ?? 0);
  // Validated before anything starts; also gives the effective chunking for the cache and the results.
  const config = loadConfig(env);
  const cache =
    options.keep === undefined
      ? undefined
      : await IngestCache.open(
          options.keep,
          await fingerprintOf({
            repoRoot: REPO_ROOT,
            corpusPath: options.corpus,
            chunkTokens: config.ingestion.chunkTokens,
            chunkOverlapTokens: config.ingestion.chunkOverlapTokens,
            embedder: config.embeddings.url === null ? 'local' : `${config.embeddings.url} ${config.embeddings.model}`,
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
    const chunking = { tokens: parley.config.ingestion.chunkTokens, overlapTokens: parley.config.ingestion.chunkOverlapTokens };
    await body({
      parley,
      client,
      datastoreId,
      datasources,
      originalWeights: weightsOf(original),
      async setWeights(weights) {
        if (cache !== undefined && restoreWeights === undefined) {
          const restore = { vectorWeight: original.vectorWeight, keywordWeight: original.keywordWeight };
          restoreWeights = () => client.updateDatastore(datastoreId, restore).then(() => undefined);
        }
        await client.updateDatastore(datastoreId, weights);
      },
      async describeDatastore() {
        const datastore = await client.getDatastore(datastoreId);
        const embeddingModel = [datastore.embeddingModel, datastore.embedding_model].find((value): value is string => typeof value === 'string');
        const fusionWeights = weightsOf(datastore);
        return { ...(embeddingModel === undefined ? {} : { embeddingModel }), ...(fusionWeights === undefined ? {} : { fusionWeights }) };
      },
      dataConfig: (evaluatedQueries) => ({
        corpus: relative(options.corpus),
        queries: relative(options.queries),
        qrels: relative(options.qrels),
        documents: dataset.documents.length,
        evaluatedQueries,
        skippedQueries: dataset.skippedQueries,
        store: options.store,
        chunking,
        cutoffs: options.cutoffs,
        ingestion: {
          ms: ingestionMs === null ? null : Math.round(ingestionMs),
          cached: cache?.state.kind === 'reuse',
          ...(cache?.state.kind === 'reuse' && cache.state.codeChanged ? { codeChangedSince: true } : {}),
          chunks,
        },
      }),
    });
  } finally {
    process.removeListener('SIGINT', interrupt);
    await shutdown();
  }
}
