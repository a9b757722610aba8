/**
 * Website crawl: a loopback site of generated pages (a sitemap, an ETag per page) added as a `web_site`
 * datasource through the HTTP API of an in-process Parley with the built-in embedding model, timed from the
 * POST until the crawl has finished and every page datasource is synched, against the embedder alone on the
 * same chunk texts in the same run. Then a re-sync of the unchanged site: its time, and what it embedded and
 * wrote (counted on the embedder and the store the job workers use, not inferred).
 *
 * The sitemap gives no `lastmod`, so the re-sync asks for every page (with its ETag, answered 304): the
 * slower of the two ways a crawl learns that a page did not change.
 */
import type { DatasourceBody, SiteCrawlBody } from '../src/contract/datasources.js';
import { createEmbedder } from '../src/llm/embeddings/create-embedder.js';
import type { Embedder } from '../src/llm/embeddings/embedder.js';
import { LocalEmbedder } from '../src/llm/embeddings/local-embedder.js';
import { embeddedTexts, embeddingDuration } from '../src/observability/instruments.js';
import { DEFAULT_CHUNKING } from '../src/rag/ingest/chunk-document.js';
import { vectorLayout, vectorWindows } from '../src/rag/ingest/vector-windows.js';
import type { DatasourceStore } from '../src/store/ports/datasource-store.js';
import { seededRandom } from '../test/support/seeded-random.js';
import type { StoreKind } from '../test/support/stores.js';
import { TestWebsite } from '../test/support/test-website.js';
import { CpuMeter, type CpuFigures } from './cpu-meter.js';
import { figure, goal, ratio, seconds, type Figure, type Goal } from './figures.js';
import { expectOk, startInProcessParley, stringField, type InProcessParley } from './in-process-parley.js';
import { makeVocabulary, sampleText, zipfSampler } from './synthetic-corpus.js';

export interface SiteCrawlOptions {
  store: StoreKind;
  embedderThreads: number;
  /** Pages of the generated site (the site's maxPages too). */
  pages: number;
  seed: number;
  log: (line: string) => void;
  /** Give up waiting for a crawl after this long. */
  timeoutMs?: number;
}

/** What a crawl of the site reported it did (the site's config.crawl). */
export type CrawlCounts = Pick<SiteCrawlBody, 'found' | 'fetched' | 'changed' | 'unchanged' | 'failed' | 'removed' | 'skipped'>;

/** What the job workers did while a crawl ran, counted on the embedder and store they share with the bench. */
export interface WorkDone {
  embeddingCalls: Figure;
  embeddedTexts: Figure;
  /** Page indexes written (`writeIndex`: chunks replaced). */
  indexWrites: Figure;
  /** Pages added or given new content to index (`create`, `replaceContent`). */
  pagesQueued: Figure;
}

export interface SiteCrawlResult {
  store: StoreKind;
  embedderThreads: number;
  pages: number;
  chunks: number;
  /** Characters of the pages' generated text (paragraphs and titles, not markup). */
  characters: number;
  /** POST /datasources {type: 'web_site'} → the crawl finished and every page datasource synched. */
  crawl: Figure;
  /** POST → the site's crawl finished (every page fetched and handed to indexing; some still indexing). */
  crawlFetched: Figure;
  pagesPerSecond: Figure;
  crawlCounts: CrawlCounts;
  crawlWork: WorkDone;
  /** `embedDocuments` on the same texts as the pages' indexing (windows), same thread count, warmed up. */
  embedderAlone: Figure;
  embedderTexts: Figure;
  embedderPagesPerSecond: Figure;
  /** Crawl + index pages/s over embedder-alone pages/s (1 = the crawl costs nothing beyond embedding). */
  crawlOverEmbedderThroughput: Figure;
  /**
   * CPU seconds of the crawl + index over CPU seconds of the embedder alone: the extra work (fetching,
   * parsing, chunking, HTTP, SQL) independent of how busy the machine was.
   */
  crawlOverEmbedderCpu: Figure;
  cpu: { crawl: CpuFigures; embedderAlone: CpuFigures; resync: CpuFigures };
  resync: {
    /** POST /datasources/{id}/resync → the crawl finished (and every page still synched). */
    wall: Figure;
    /** The crawl's own startedAt → finishedAt, as the site's config records them (without the job's pickup). */
    crawlOwn: Figure;
    overFirstCrawl: Figure;
    /** Page requests the site received, and how many it answered 304 (the request carried the page's ETag). */
    pageRequests: Figure;
    notModified: Figure;
    counts: CrawlCounts;
    work: WorkDone;
    /** Pages whose lastSynch moved: an index written again. */
    lastSynchChanged: Figure;
  };
  goals: Goal[];
}

interface WorkCounts {
  embeddingCalls: number;
  embeddedTexts: number;
  indexWrites: number;
  pagesQueued: number;
}

/** Document embedding calls and texts so far, as Parley's own metrics count them (every embedder call is measured). */
async function embeddingMetrics(): Promise<{ calls: number; texts: number }> {
  const documents = (labels: Partial<Record<string, string | number>>) => labels.kind === 'documents';
  const durations = await embeddingDuration.get();
  const calls = durations.values
    .filter((sample) => sample.metricName === `${durations.name}_count` && documents(sample.labels))
    .reduce((sum, sample) => sum + sample.value, 0);
  const texts = (await embeddedTexts.get()).values.filter((sample) => documents(sample.labels)).reduce((sum, sample) => sum + sample.value, 0);
  return { calls, texts };
}

/**
 * The work the job workers do: embedding calls from Parley's metrics, index writes and queued pages counted
 * by wrapping the datasource store the workers use (the same instance: they take it from the core the bench
 * holds).
 */
class WorkCounter {
  #indexWrites = 0;
  #pagesQueued = 0;

  constructor(datasources: DatasourceStore) {
    const writeIndex = datasources.writeIndex.bind(datasources);
    datasources.writeIndex = (...args) => {
      this.#indexWrites += 1;
      return writeIndex(...args);
    };
    const create = datasources.create.bind(datasources);
    datasources.create = (...args) => {
      this.#pagesQueued += 1;
      return create(...args);
    };
    const replaceContent = datasources.replaceContent.bind(datasources);
    datasources.replaceContent = (...args) => {
      this.#pagesQueued += 1;
      return replaceContent(...args);
    };
  }

  /** A mark to measure from. */
  async snapshot(): Promise<WorkCounts> {
    const { calls, texts } = await embeddingMetrics();
    return { embeddingCalls: calls, embeddedTexts: texts, indexWrites: this.#indexWrites, pagesQueued: this.#pagesQueued };
  }

  async since(mark: WorkCounts): Promise<WorkDone> {
    const now = await this.snapshot();
    return {
      embeddingCalls: figure(now.embeddingCalls - mark.embeddingCalls, 'count'),
      embeddedTexts: figure(now.embeddedTexts - mark.embeddedTexts, 'count'),
      indexWrites: figure(now.indexWrites - mark.indexWrites, 'count'),
      pagesQueued: figure(now.pagesQueued - mark.pagesQueued, 'count'),
    };
  }
}

interface GeneratedPage {
  path: string;
  etag: string;
  html: string;
  characters: number;
}

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Sentences of Zipf-drawn words, capitalised and stopped, so the chunker sees prose-shaped text. */
function paragraph(vocabulary: readonly string[], word: () => number, random: () => number): string {
  const sentences = 4 + Math.floor(random() * 4);
  return Array.from({ length: sentences }, () => {
    const text = sampleText(vocabulary, word, 8 + Math.floor(random() * 10));
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  }).join(' ');
}

/** `count` pages of a help centre, each a title and 3–5 paragraphs of its own generated text, with an ETag. */
function generatePages(count: number, seed: number): GeneratedPage[] {
  const random = seededRandom(seed);
  const vocabulary = makeVocabulary(5_000, random);
  const word = zipfSampler(vocabulary.length, 1, random);
  return Array.from({ length: count }, (_, index) => {
    const path = `/help/article-${String(index + 1).padStart(4, '0')}`;
    const title = `Article ${index + 1}: ${sampleText(vocabulary, word, 3)}`;
    const paragraphs = Array.from({ length: 3 + Math.floor(random() * 3) }, () => paragraph(vocabulary, word, random));
    const body = paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join('');
    const html =
      `<!doctype html><html><head><title>${escapeHtml(title)}</title></head><body>` +
      `<nav><a href="/help/">Help centre</a></nav><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
    return { path, etag: `"a${index + 1}-v1"`, html, characters: title.length + paragraphs.reduce((sum, text) => sum + text.length, 0) };
  });
}

const FAILED = new Set(['error', 'usage_limit_reached']);
/** The site is polled this often (one datasource: cheap); its pages' list, once its crawl has finished, every LIST_POLL_MS. */
const SITE_POLL_MS = 25;
const LIST_POLL_MS = 100;
const sleep = (millis: number) => new Promise<void>((resolve) => setTimeout(resolve, millis));

async function getSite(parley: InProcessParley, id: string): Promise<DatasourceBody> {
  return expectOk('GET /datasources/{id}', await parley.call('GET', `/datasources/${id}`)) as DatasourceBody;
}

async function pagesOf(parley: InProcessParley, datastoreId: string, siteId: string): Promise<DatasourceBody[]> {
  const listed = expectOk('GET datasources', await parley.call('GET', `/datastores/${datastoreId}/datasources`));
  if (!Array.isArray(listed)) throw new Error('expected a list of datasources');
  return (listed as DatasourceBody[]).filter((each) => each.groupId === siteId && each.id !== siteId);
}

/** Waits for a crawl of the site that started after `startedBefore` to finish; answers the site and when it was seen finished. */
async function crawlFinished(parley: InProcessParley, siteId: string, startedBefore: string | undefined, deadline: number) {
  for (;;) {
    const site = await getSite(parley, siteId);
    const crawl = site.config.crawl;
    if (site.status === 'synched' && crawl?.finishedAt !== undefined && crawl.startedAt !== startedBefore) {
      return { site, at: performance.now() };
    }
    if (FAILED.has(site.status)) {
      throw new Error(`the site's crawl ended ${site.status}: ${site.error}`);
    }
    if (performance.now() > deadline) {
      throw new Error(`the site's crawl had not finished after the timeout (${site.status}, ${site.error}, ${JSON.stringify(crawl)})`);
    }
    await sleep(SITE_POLL_MS);
  }
}

/** Waits for the site's `expected` pages to be synched; answers them and when they were. */
async function pagesSynched(parley: InProcessParley, datastoreId: string, siteId: string, expected: number, deadline: number) {
  for (;;) {
    const pages = await pagesOf(parley, datastoreId, siteId);
    const failed = pages.find((page) => FAILED.has(page.status));
    if (failed) throw new Error(`page ${String(failed.config.source_url)} ended ${failed.status}: ${failed.error}`);
    if (pages.length === expected && pages.every((page) => page.status === 'synched')) return { pages, at: performance.now() };
    if (performance.now() > deadline) {
      const done = pages.filter((page) => page.status === 'synched').length;
      throw new Error(`only ${done} of ${expected} pages synched (${pages.length} listed) after the timeout`);
    }
    await sleep(LIST_POLL_MS);
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

const countsOf = (site: DatasourceBody): CrawlCounts => {
  const crawl = site.config.crawl;
  if (crawl === undefined) throw new Error('the site has no crawl figures');
  const { found, fetched, changed, unchanged, failed, removed, skipped } = crawl;
  return { found, fetched, changed, unchanged, failed, removed, skipped };
};

/** Starts the model's threads so neither side of the comparison pays the model load. */
async function warmUp(embedder: Embedder): Promise<void> {
  if (embedder instanceof LocalEmbedder) await embedder.warmUp();
  else await embedder.embedQuery('warm up');
}

export async function runSiteCrawlBench(options: SiteCrawlOptions): Promise<SiteCrawlResult> {
  const { log } = options;
  const generated = generatePages(options.pages, options.seed);
  const website = new TestWebsite();
  await website.start();
  const at = (path: string) => `${website.url}${path}`;
  website.pages.set('/robots.txt', { body: `User-agent: *\nAllow: /\n\nSitemap: ${at('/sitemap.xml')}\n`, contentType: 'text/plain' });
  website.pages.set('/sitemap.xml', {
    body: TestWebsite.urlset(generated.map((page) => ({ loc: at(page.path) }))),
    contentType: 'application/xml',
  });
  for (const page of generated) website.pages.set(page.path, { body: page.html, etag: page.etag });
  const etags = new Map(generated.map((page) => [page.path, page.etag]));

  const parley = await startInProcessParley({ store: options.store, embedderThreads: options.embedderThreads }).catch(async (error: unknown) => {
    await website.stop();
    throw error;
  });
  try {
    const datastoreId = stringField(expectOk('POST /datastores', await parley.call('POST', '/datastores', { name: 'help centre' })), 'id');
    const embedder = await parley.core.embedder();
    await warmUp(embedder);
    const work = new WorkCounter(parley.core.store.datasources);
    const timeoutMs = options.timeoutMs ?? 30 * 60_000;

    log(`site crawl: ${options.pages} pages on loopback into ${options.store}`);
    const crawlMark = await work.snapshot();
    const crawlCpu = new CpuMeter().start();
    const start = performance.now();
    const created = expectOk(
      'POST /datasources',
      await parley.call('POST', '/datasources', { type: 'web_site', datastoreId, config: { source_url: at('/help/'), maxPages: options.pages } }),
    ) as DatasourceBody;
    const fetched = await crawlFinished(parley, created.id, undefined, start + timeoutMs);
    const indexed = await pagesSynched(parley, datastoreId, created.id, options.pages, start + timeoutMs);
    const crawlMs = indexed.at - start;
    const crawlCpuFigures = crawlCpu.stop();
    const crawlWork = await work.since(crawlMark);
    const crawlCounts = countsOf(fetched.site);

    log(`site crawl: re-sync of the unchanged site`);
    const requestsBefore = website.requests.length;
    const resyncMark = await work.snapshot();
    const resyncCpu = new CpuMeter().start();
    const resyncStart = performance.now();
    expectOk('POST /datasources/{id}/resync', await parley.call('POST', `/datasources/${created.id}/resync`));
    const resynced = await crawlFinished(parley, created.id, fetched.site.config.crawl?.startedAt, resyncStart + timeoutMs);
    const resyncMs = resynced.at - resyncStart;
    const resyncCpuFigures = resyncCpu.stop();
    const after = await pagesSynched(parley, datastoreId, created.id, options.pages, resyncStart + timeoutMs);
    const resyncWork = await work.since(resyncMark);
    const pageRequests = website.requests.slice(requestsBefore).filter((request) => etags.has(request.path));
    const notModified = pageRequests.filter((request) => request.ifNoneMatch === etags.get(request.path));
    const synchedBefore = new Map(indexed.pages.map((page) => [page.id, page.lastSynch]));
    const lastSynchChanged = after.pages.filter((page) => synchedBefore.get(page.id) !== page.lastSynch).length;
    const resyncCrawl = resynced.site.config.crawl;
    const crawlOwnMs = resyncCrawl?.finishedAt === undefined ? Number.NaN : Date.parse(resyncCrawl.finishedAt) - Date.parse(resyncCrawl.startedAt);

    log(`site crawl: the embedder alone on the pages' chunk texts`);
    const texts: string[] = [];
    const layout = vectorLayout(true, embedder.maxInputTokens, DEFAULT_CHUNKING.maxTokens);
    for (const page of indexed.pages) texts.push(...(await chunkTexts(parley, page.id)));
    const chunks = indexed.pages.reduce((total, page) => total + page.nbChunks, 0);
    if (texts.length !== chunks) throw new Error(`the API listed ${texts.length} chunks, the pages count ${chunks}`);
    const inputs = texts.flatMap((text) => vectorWindows(text, layout));

    const alone = createEmbedder({ threads: options.embedderThreads });
    let embedderMs: number;
    let embedderCpuFigures: CpuFigures;
    try {
      await warmUp(alone);
      const embedderCpu = new CpuMeter().start();
      const embedStart = performance.now();
      await alone.embedDocuments(inputs);
      embedderMs = performance.now() - embedStart;
      embedderCpuFigures = embedderCpu.stop();
    } finally {
      await alone.close();
    }

    const pagesPerSecond = options.pages / (crawlMs / 1000);
    const embedderPagesPerSecond = options.pages / (embedderMs / 1000);
    const embeddingCallsOnResync = resyncWork.embeddingCalls.value;
    return {
      store: options.store,
      embedderThreads: options.embedderThreads,
      pages: options.pages,
      chunks,
      characters: generated.reduce((total, page) => total + page.characters, 0),
      crawl: seconds(crawlMs / 1000),
      crawlFetched: seconds((fetched.at - start) / 1000),
      pagesPerSecond: figure(pagesPerSecond, 'pages/s'),
      crawlCounts,
      crawlWork,
      embedderAlone: seconds(embedderMs / 1000),
      embedderTexts: figure(inputs.length, 'count'),
      embedderPagesPerSecond: figure(embedderPagesPerSecond, 'pages/s'),
      crawlOverEmbedderThroughput: ratio(pagesPerSecond, embedderPagesPerSecond),
      crawlOverEmbedderCpu: ratio(crawlCpuFigures.own.value, embedderCpuFigures.own.value),
      cpu: { crawl: crawlCpuFigures, embedderAlone: embedderCpuFigures, resync: resyncCpuFigures },
      resync: {
        wall: seconds(resyncMs / 1000),
        crawlOwn: seconds(crawlOwnMs / 1000),
        overFirstCrawl: ratio(resyncMs, crawlMs),
        pageRequests: figure(pageRequests.length, 'count'),
        notModified: figure(notModified.length, 'count'),
        counts: countsOf(resynced.site),
        work: resyncWork,
        lastSynchChanged: figure(lastSynchChanged, 'count'),
      },
      goals: [
        goal('crawl + index time / embedder time ≤ 1.2 (as ingestion)', crawlMs / embedderMs <= 1.2),
        goal('re-sync of the unchanged site makes no embedding call', embeddingCallsOnResync === 0),
        goal('re-sync of the unchanged site writes no index', resyncWork.indexWrites.value === 0 && lastSynchChanged === 0),
      ],
    };
  } finally {
    await parley.close();
    await website.stop();
  }
}
