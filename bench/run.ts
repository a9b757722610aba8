/**
 * `npm run bench`: ingestion, store search and query endpoint, measured on this machine in this run,
 * with ratios against baselines measured in the same run. Prints a table, writes bench/results.json.
 *
 *   npm run bench                        all parts; vectors: SQLite at 10k and 100k, PostgreSQL at 10k
 *                                        (~6 min on 2 idle cores, up to ~18 min when the machine is busy)
 *   npm run bench -- --quick             smoke run: 20 articles, 50 endpoint queries, 10k vectors (~2–4 min)
 *   npm run bench -- --only vector --sizes 10000,100000     both stores at both sizes (PostgreSQL 100k
 *                                        alone takes ~7 min: pgvector maintains its HNSW graph on insert);
 *                                        the vector part also measures window vectors (20k chunks × 4) at
 *                                        topK 10, 50 and 100 on every store in --stores
 *
 *   npm run bench -- --only widget       chat widget: widget.js size, script tag → bubble and Enter → first
 *                                        answer words in Chromium beside fetch → first answer frame (~1 min)
 *
 *   npm run bench -- --only live         live event stream on both stores (~2 min): reply → event on screen,
 *                                        memory of 1,000 idle streams, CPU of 1,000 events to 100 streams
 *
 *   npm run bench -- --only channels     message in → reply out through Telegram (webhook, long polling),
 *                                        WhatsApp (webhook), e-mail (SMTP listener → SMTP), Slack and Crisp with the built-in model, beside POST
 *                                        /agents/{id}/query (~1 min; --channel-messages N per channel, 30 default)
 *
 *   npm run bench -- --only first-answer `parley start` in its own process: its first answer after it reports
 *                                        ready beside its warm answers, with and without the model preloaded (~1 min)
 *
 *   npm run bench -- --only load         throughput and tail latency under load on both stores beside a bare
 *                                        Fastify + SQLite route (~6 min; --load-seconds N per route, 30 default)
 *
 *   npm run bench -- --only site-crawl   a loopback website (sitemap, an ETag per page) added as a web_site
 *                                        datasource: POST → crawled and every page synched, pages/s beside the
 *                                        embedder alone on the same chunks; then a re-sync of the unchanged site,
 *                                        its time and the embedding calls it made (~3 min on 2 cores; --site-pages N,
 *                                        200 default, 50 with --quick)
 *
 * Flags: --only ingest,query,agent,vector,events,dashboard,live,widget,load,channels,first-answer,site-crawl
 *        --sizes N,N (vector: every store in --stores)  --stores sqlite,postgres (vector, live)
 *        --ingest-store sqlite|postgres  --threads N (embedder)  --queries N (store search queries)
 *        --endpoint-queries N (also events' deliveries and live's replies per case)  --articles N  --seed N
 *        --load-seconds N  --channel-messages N  --site-pages N  --out FILE  --quick
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { StoreKind } from '../test/support/stores.js';
import { runIngestionBench, type IngestedDatastore, type IngestionResult } from './ingestion.js';
import { FakeOpenAIChatServer } from '../test/support/fake-openai-chat-server.js';
import { INSTANT_MODEL, runAgentQueryBench, type AgentQueryResult } from './agent-query.js';
import { runQueryBench, type QueryResult } from './query.js';
import { runEventsBench, type EventsResult } from './events.js';
import {
  agentQueryTable,
  channelsTable,
  dashboardTable,
  eventsTable,
  firstAnswerTable,
  ingestionTable,
  liveTable,
  loadTable,
  queryTable,
  siteCrawlTable,
  vectorTable,
  widgetTable,
  windowRecallTable,
} from './results-table.js';
import { runDashboardBench, type DashboardResult } from './dashboard.js';
import { runLiveBench, type LiveStoreResult } from './live.js';
import { runVectorSearchBench, type VectorSearchCase } from './vector-search.js';
import { runWidgetBench, type WidgetResult } from './widget.js';
import { runWindowRecallBench, type WindowRecallCase } from './window-recall.js';
import { runLoadBench, type LoadStoreResult } from './load.js';
import { runChannelsBench, type ChannelsResult } from './channels.js';
import { runFirstAnswerBench, type FirstAnswerResult } from './first-answer.js';
import { runSiteCrawlBench, type SiteCrawlResult } from './site-crawl.js';

const PARTS = [
  'ingest',
  'query',
  'agent',
  'vector',
  'events',
  'dashboard',
  'live',
  'widget',
  'load',
  'channels',
  'first-answer',
  'site-crawl',
] as const;
type Part = (typeof PARTS)[number];

const { values: flags } = parseArgs({
  options: {
    only: { type: 'string' },
    sizes: { type: 'string' },
    stores: { type: 'string' },
    'ingest-store': { type: 'string' },
    threads: { type: 'string' },
    queries: { type: 'string' },
    'endpoint-queries': { type: 'string' },
    articles: { type: 'string' },
    seed: { type: 'string' },
    'load-seconds': { type: 'string' },
    'channel-messages': { type: 'string' },
    'site-pages': { type: 'string' },
    out: { type: 'string' },
    quick: { type: 'boolean', default: false },
  },
  strict: true,
});

const list = (raw: string | undefined, fallback: string): string[] =>
  (raw ?? fallback)
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, got "${raw}"`);
  return value;
}

function storeKind(raw: string): StoreKind {
  if (raw !== 'sqlite' && raw !== 'postgres') throw new Error(`unknown store "${raw}" (sqlite or postgres)`);
  return raw;
}

const quick = flags.quick;
const stores = list(flags.stores, 'sqlite,postgres').map(storeKind);

/** Explicit --sizes apply to every store; by default PostgreSQL stops at 10k (100k adds ~8 minutes). */
function vectorSizes(): Partial<Record<StoreKind, number[]>> {
  const sizes = (raw: string) => list(raw, raw).map((size) => positive('sizes', size, 0));
  const plan: Partial<Record<StoreKind, number[]>> = {};
  for (const kind of stores) {
    plan[kind] = sizes(flags.sizes ?? (quick || kind === 'postgres' ? '10000' : '10000,100000'));
  }
  return plan;
}
const parts = new Set(
  list(flags.only, PARTS.join(',')).map((part) => {
    if (!(PARTS as readonly string[]).includes(part)) throw new Error(`unknown part "${part}" (${PARTS.join(', ')})`);
    return part as Part;
  }),
);
const settings = {
  quick,
  parts: [...parts],
  vectorSizes: vectorSizes(),
  ingestStore: storeKind(flags['ingest-store'] ?? 'sqlite'),
  embedderThreads: positive('threads', flags.threads, os.availableParallelism()),
  storeQueries: positive('queries', flags.queries, quick ? 100 : 300),
  endpointQueries: positive('endpoint-queries', flags['endpoint-queries'], quick ? 50 : 200),
  articles: flags.articles === undefined ? (quick ? 20 : undefined) : positive('articles', flags.articles, 0),
  seed: positive('seed', flags.seed, 42),
  live: {
    stores,
    idleStreams: quick ? 200 : 1_000,
    fanOutStreams: quick ? 20 : 100,
    fanOutEvents: quick ? 200 : 1_000,
    writers: 4,
  },
  channelMessages: positive('channel-messages', flags['channel-messages'], quick ? 10 : 30),
  sitePages: positive('site-pages', flags['site-pages'], quick ? 50 : 200),
  load: { seconds: positive('load-seconds', flags['load-seconds'], quick ? 5 : 30), articles: quick ? 5 : 20 },
};
const out = path.resolve(flags.out ?? path.join(import.meta.dirname, 'results.json'));
const log = (line: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);

interface Results {
  startedAt: string;
  durationSeconds: number;
  machine: Record<string, unknown>;
  settings: typeof settings;
  ingestion?: IngestionResult;
  query?: QueryResult;
  agentQuery?: AgentQueryResult;
  vectorSearch?: VectorSearchCase[];
  windowRecall?: WindowRecallCase[];
  events?: EventsResult;
  dashboard?: DashboardResult;
  live?: LiveStoreResult[];
  widget?: WidgetResult;
  load?: LoadStoreResult[];
  channels?: ChannelsResult;
  firstAnswer?: FirstAnswerResult;
  siteCrawl?: SiteCrawlResult;
}

const machine = () => ({
  cpuModel: os.cpus()[0]?.model ?? 'unknown',
  cpus: os.cpus().length,
  availableParallelism: os.availableParallelism(),
  totalMemoryMiB: Math.round(os.totalmem() / 1048576),
  node: process.version,
  platform: `${os.platform()} ${os.release()} ${os.arch()}`,
  loadAverageAtStart: os.loadavg().map((load) => Number(load.toFixed(2))),
});

const started = Date.now();
/**
 * A run of some parts (`--only`) keeps the other parts' figures of the results file it writes to, so one
 * part can be measured again without losing the rest; the machine and time are this run's.
 */
const earlier: Partial<Results> =
  flags.only !== undefined && fs.existsSync(out) ? (JSON.parse(fs.readFileSync(out, 'utf8')) as Partial<Results>) : {};
const results: Results = { ...earlier, startedAt: new Date(started).toISOString(), durationSeconds: 0, machine: machine(), settings };
const write = () => {
  results.durationSeconds = Math.round((Date.now() - started) / 1000);
  results.machine.loadAverageAtEnd = os.loadavg().map((load) => Number(load.toFixed(2)));
  fs.writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
};

// Ingestion first: its peak RSS should not include what the other parts leave behind.
let ingested: IngestedDatastore | undefined;
// A model that answers at once, on loopback: the agent bench measures everything around the model.
const instantModel = new FakeOpenAIChatServer({ defaultReply: { kind: 'answer', deltas: ['An', ' answer.'] } });
const instantModelUrl = await instantModel.start();
try {
  if (parts.has('ingest') || parts.has('query') || parts.has('agent')) {
    log(`ingestion: ${settings.articles ?? 'all'} articles into ${settings.ingestStore}`);
    const ingestion = await runIngestionBench({
      store: settings.ingestStore,
      embedderThreads: settings.embedderThreads,
      articleLimit: settings.articles,
      env: { PARLEY_MODELS: JSON.stringify({ [INSTANT_MODEL]: { provider: 'openai-compatible', model: 'instant', baseURL: instantModelUrl } }) },
    });
    ingested = ingestion.ingested;
    results.ingestion = ingestion.result;
    write();
  }
  if (parts.has('query') && ingested) {
    log(`query endpoint: ${settings.endpointQueries} queries × 3 modes`);
    results.query = await runQueryBench(ingested, { queries: settings.endpointQueries, topK: 5 });
    write();
  }
  if (parts.has('agent') && ingested) {
    log(`agent query: ${settings.endpointQueries} questions`);
    results.agentQuery = await runAgentQueryBench(ingested, { queries: settings.endpointQueries });
    write();
  }
  if (parts.has('load')) {
    results.load = await runLoadBench({
      stores,
      durationSeconds: settings.load.seconds,
      articles: settings.load.articles,
      instantModelUrl,
      log,
    });
    write();
  }
  if (parts.has('first-answer')) {
    results.firstAnswer = await runFirstAnswerBench({
      store: settings.ingestStore,
      articles: quick ? 5 : 10,
      warmAnswers: quick ? 10 : 30,
      instantModelUrl,
      log,
    });
    write();
  }
} finally {
  await ingested?.parley.close();
  await instantModel.stop();
}
if (parts.has('vector')) {
  results.vectorSearch = await runVectorSearchBench({
    sizes: settings.vectorSizes,
    queries: settings.storeQueries,
    seed: settings.seed,
    log,
  });
  write();
  results.windowRecall = await runWindowRecallBench({
    stores,
    chunks: quick ? 10_000 : 20_000,
    queries: settings.storeQueries,
    seed: settings.seed,
    log,
  });
  write();
}
if (parts.has('events')) {
  log(`events: ${settings.endpointQueries} webhook deliveries on ${settings.ingestStore}`);
  results.events = await runEventsBench({ store: settings.ingestStore, events: settings.endpointQueries });
}
if (parts.has('dashboard')) {
  log(`dashboard: ${flags.quick ? 5 : 20} cold loads in Chromium on ${settings.ingestStore}`);
  results.dashboard = await runDashboardBench({ store: settings.ingestStore, loads: flags.quick ? 5 : 20 });
  write();
}
if (parts.has('live')) {
  results.live = await runLiveBench({
    ...settings.live,
    samples: settings.endpointQueries,
    // Each starts at a random point of SQLite's 1 s poll and waits for it: ~1 s a sample.
    pollBoundSamples: Math.min(settings.endpointQueries, 50),
    log,
  });
  write();
}
if (parts.has('widget')) {
  log(`widget: ${flags.quick ? 5 : 20} cold loads and questions in Chromium on ${settings.ingestStore}`);
  results.widget = await runWidgetBench({ store: settings.ingestStore, loads: flags.quick ? 5 : 20 });
  write();
}
if (parts.has('channels')) {
  results.channels = await runChannelsBench({ store: settings.ingestStore, messages: settings.channelMessages, log });
  write();
}
if (parts.has('site-crawl')) {
  results.siteCrawl = await runSiteCrawlBench({
    store: settings.ingestStore,
    embedderThreads: settings.embedderThreads,
    pages: settings.sitePages,
    seed: settings.seed,
    log,
  });
  write();
}
write();

const m = results.machine;
console.log(
  `\nParley bench — ${String(m.cpuModel)}, ${String(m.availableParallelism)} cores, node ${process.version}, ${results.durationSeconds} s\n`,
);
if (parts.has('ingest') && results.ingestion) console.log(`${ingestionTable(results.ingestion)}\n`);
if (parts.has('query') && results.query) console.log(`${queryTable(results.query)}\n`);
if (parts.has('agent') && results.agentQuery) console.log(`${agentQueryTable(results.agentQuery)}\n`);
if (parts.has('vector') && results.vectorSearch) console.log(`${vectorTable(results.vectorSearch)}\n`);
if (parts.has('vector') && results.windowRecall) console.log(`${windowRecallTable(results.windowRecall)}\n`);
if (parts.has('events') && results.events) console.log(`${eventsTable(results.events)}\n`);
if (parts.has('dashboard') && results.dashboard) console.log(`${dashboardTable(results.dashboard)}\n`);
if (parts.has('live') && results.live) console.log(`${liveTable(results.live)}\n`);
if (parts.has('widget') && results.widget) console.log(`${widgetTable(results.widget)}\n`);
if (parts.has('load') && results.load) console.log(`${loadTable(results.load)}\n`);
if (parts.has('channels') && results.channels) console.log(`${channelsTable(results.channels)}\n`);
if (parts.has('first-answer') && results.firstAnswer) console.log(`${firstAnswerTable(results.firstAnswer)}\n`);
if (parts.has('site-crawl') && results.siteCrawl) console.log(`${siteCrawlTable(results.siteCrawl)}\n`);
console.log(`Written to ${path.relative(process.cwd(), out)}`);
