/**
 * Ingestion: the COVID-QA articles sent as `text` datasources through the HTTP API of an in-process
 * Parley, timed from the first POST until every datasource is synched, against the embedder alone on the
 * same chunk texts in the same run.
 */
import { createEmbedder } from '../src/llm/embeddings/create-embedder.js';
import type { Embedder } from '../src/llm/embeddings/embedder.js';
import { LocalEmbedder } from '../src/llm/embeddings/local-embedder.js';
import { DEFAULT_CHUNKING } from '../src/rag/ingest/chunk-document.js';
import { vectorLayout, vectorWindows } from '../src/rag/ingest/vector-windows.js';
import { isJsonObject } from '../src/text/json-object.js';
import type { StoreKind } from '../test/support/stores.js';
import { readArticles } from './covid-qa-fixture.js';
import { CpuMeter, type CpuFigures } from './cpu-meter.js';
import { figure, goal, megabytes, ratio, seconds, type Figure, type Goal } from './figures.js';
import { expectOk, startInProcessParley, stringField, type InProcessParley } from './in-process-parley.js';
import { PeakRssSampler } from './memory-sampler.js';

export interface IngestionOptions {
  store: StoreKind;
  embedderThreads: number;
  /** Only the first articles (a smoke run); all of them when undefined. */
  articleLimit?: number;
  /** More configuration for the Parley under test. */
  env?: Record<string, string>;
  /** Give up waiting for `synched` after this long. */
  timeoutMs?: number;
}

export interface IngestionResult {
  store: StoreKind;
  embedderThreads: number;
  articles: number;
  chunks: number;
  characters: number;
  /** First POST to every datasource synched. */
  pipeline: Figure;
  /** Time spent sending the POSTs (they only queue jobs). */
  posting: Figure;
  chunksPerSecond: Figure;
  /** Texts the pipeline embedded: a window (vectorWindows, on by default) or a chunk each. */
  embeddedTexts: number;
  /** `embedDocuments` on the same texts as the pipeline, same thread count, warmed up, same run. */
  embedderAlone: Figure;
  embedderChunksPerSecond: Figure;
  /** `embedDocuments` on one text per chunk (windows off), same run: what windows cost, as a ratio. */
  embedderWholeChunks: Figure;
  windowsOverWholeChunks: Figure;
  pipelineOverEmbedder: Figure;
  /**
   * CPU seconds of the pipeline over CPU seconds of the embedder alone: the extra work (parsing,
   * chunking, HTTP, SQL) independent of how busy the machine was.
   */
  pipelineOverEmbedderCpu: Figure;
  /** Contention during each side of the comparison. */
  cpu: { pipeline: CpuFigures; embedderAlone: CpuFigures };
  /** Whole process (API, job workers, embedder and parser threads) while the pipeline ran. */
  peakRssSampled: Figure;
  peakRssKernel: Figure | null;
  goals: Goal[];
}

/** The running Parley with the ingested datastore, for the query bench to reuse. */
export interface IngestedDatastore {
  parley: InProcessParley;
  datastoreId: string;
  chunks: number;
}

interface DatasourceState {
  id: string;
  status: string;
  nbChunks: number;
  error: string | null;
}

const FAILED = new Set(['error', 'usage_limit_reached']);
/**
 * Status poll period. Each poll lists every datasource (API work in this same process, counted in the
 * pipeline's CPU time), so it stays coarse: ±0.25 s on a run of minutes.
 */
const POLL_MS = 500;
const sleep = (millis: number) => new Promise<void>((resolve) => setTimeout(resolve, millis));

function toStates(body: unknown): DatasourceState[] {
  if (!Array.isArray(body)) throw new Error(`expected a list of datasources, got ${JSON.stringify(body).slice(0, 200)}`);
  return body.map((item: unknown) => ({
    id: stringField(item, 'id'),
    status: stringField(item, 'status'),
    nbChunks: isJsonObject(item) && typeof item.nbChunks === 'number' ? item.nbChunks : 0,
    error: isJsonObject(item) && typeof item.error === 'string' ? item.error : null,
  }));
}

async function waitUntilSynched(parley: InProcessParley, datastoreId: string, expected: number, timeoutMs: number) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const states = toStates(expectOk('GET datasources', await parley.call('GET', `/datastores/${datastoreId}/datasources`)));
    const failed = states.find((state) => FAILED.has(state.status));
    if (failed) throw new Error(`datasource ${failed.id} ended ${failed.status}: ${failed.error}`);
    if (states.length === expected && states.every((state) => state.status === 'synched')) return states;
    if (performance.now() > deadline) {
      const done = states.filter((state) => state.status === 'synched').length;
      throw new Error(`only ${done} of ${expected} datasources synched after ${timeoutMs} ms`);
    }
    await sleep(POLL_MS);
  }
}

/** Every chunk text of a datasource, in document order, as the API lists them. */
async function chunkTexts(parley: InProcessParley, datasourceId: string): Promise<string[]> {
  const texts: string[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = expectOk('GET chunks', await parley.call('GET', `/datasources/${datasourceId}/chunks?limit=500&offset=${offset}`));
    if (!Array.isArray(page)) throw new Error('expected a list of chunks');
    texts.push(...page.map((chunk: unknown) => stringField(chunk, 'text')));
    if (page.length < 500) return texts;
  }
}

/** Starts the model's threads so neither side of the comparison pays the model load. */
async function warmUp(embedder: Embedder): Promise<void> {
  if (embedder instanceof LocalEmbedder) await embedder.warmUp();
  else await embedder.embedQuery('warm up');
}

export async function runIngestionBench(options: IngestionOptions): Promise<{ result: IngestionResult; ingested: IngestedDatastore }> {
  const articles = readArticles().slice(0, options.articleLimit);
  const parley = await startInProcessParley({ store: options.store, embedderThreads: options.embedderThreads, env: options.env });
  try {
    const datastore = expectOk('POST /datastores', await parley.call('POST', '/datastores', { name: 'covid-qa' }));
    const datastoreId = stringField(datastore, 'id');
    await warmUp(await parley.core.embedder());

    const sampler = new PeakRssSampler();
    sampler.start();
    const pipelineCpu = new CpuMeter().start();
    const start = performance.now();
    for (const article of articles) {
      const body = { type: 'text', datastoreId, name: article.title.slice(0, 500) || article.id, text: article.text, custom_id: article.id };
      expectOk('POST /datasources', await parley.call('POST', '/datasources', body));
    }
    const posted = performance.now();
    const states = await waitUntilSynched(parley, datastoreId, articles.length, options.timeoutMs ?? 30 * 60_000);
    const pipelineMs = performance.now() - start;
    const pipelineCpuFigures = pipelineCpu.stop();
    const peak = sampler.stop();

    const texts: string[] = [];
    const inputs: string[] = [];
    const layout = vectorLayout(true, (await parley.core.embedder()).maxInputTokens, DEFAULT_CHUNKING.maxTokens);
    for (const state of states) {
      const chunkTextsOfSource = await chunkTexts(parley, state.id);
      texts.push(...chunkTextsOfSource);
      inputs.push(...chunkTextsOfSource.flatMap((text) => vectorWindows(text, layout)));
    }
    const chunks = states.reduce((total, state) => total + state.nbChunks, 0);
    if (texts.length !== chunks) throw new Error(`the API listed ${texts.length} chunks, the datasources count ${chunks}`);

    const embedder = createEmbedder({ threads: options.embedderThreads });
    let embedderMs: number;
    let embedderCpuFigures: CpuFigures;
    let wholeChunksMs: number;
    try {
      await warmUp(embedder);
      const embedderCpu = new CpuMeter().start();
      const embedStart = performance.now();
      await embedder.embedDocuments(inputs);
      embedderMs = performance.now() - embedStart;
      embedderCpuFigures = embedderCpu.stop();
      const wholeStart = performance.now();
      await embedder.embedDocuments(texts);
      wholeChunksMs = performance.now() - wholeStart;
    } finally {
      await embedder.close();
    }

    const peakRss = peak.kernelBytes ?? peak.sampledBytes;
    const overEmbedder = pipelineMs / embedderMs;
    const result: IngestionResult = {
      store: options.store,
      embedderThreads: options.embedderThreads,
      articles: articles.length,
      chunks,
      characters: articles.reduce((total, article) => total + article.text.length, 0),
      pipeline: seconds(pipelineMs / 1000),
      posting: seconds((posted - start) / 1000),
      chunksPerSecond: figure(chunks / (pipelineMs / 1000), 'chunks/s'),
      embeddedTexts: inputs.length,
      embedderAlone: seconds(embedderMs / 1000),
      embedderChunksPerSecond: figure(chunks / (embedderMs / 1000), 'chunks/s'),
      embedderWholeChunks: seconds(wholeChunksMs / 1000),
      windowsOverWholeChunks: ratio(embedderMs, wholeChunksMs),
      pipelineOverEmbedder: ratio(pipelineMs, embedderMs),
      pipelineOverEmbedderCpu: ratio(pipelineCpuFigures.own.value, embedderCpuFigures.own.value),
      cpu: { pipeline: pipelineCpuFigures, embedderAlone: embedderCpuFigures },
      peakRssSampled: megabytes(peak.sampledBytes),
      peakRssKernel: peak.kernelBytes === undefined ? null : megabytes(peak.kernelBytes),
      goals: [
        goal('pipeline time / embedder time ≤ 1.2', overEmbedder <= 1.2),
        goal('embedding in windows / embedding whole chunks ≤ 3.5', embedderMs / wholeChunksMs <= 3.5),
        goal('peak RSS < 1 GB', peakRss < 1e9),
      ],
    };
    return { result, ingested: { parley, datastoreId, chunks } };
  } catch (error) {
    await parley.close();
    throw error;
  }
}
