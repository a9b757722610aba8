/**
 * Load: Parley under many concurrent clients, measured from outside (autocannon over loopback) against a
 * bare Fastify route that reads one SQLite row (bench/load/bare-server.ts) in the same run. Each server
 * runs in a process of its own at the default log level, its log lines read by this process as a
 * journal would; Parley runs as `parley start` does (API and workers in one process) on each store.
 *
 * Routes: `GET /agents/{id}`; `POST /datastores/{id}/query` (hybrid, COVID-QA questions in turn, query
 * vector cache off, so every request embeds); `POST /agents/{id}/query` with a model on loopback that
 * answers at once; and the three mixed. The datastore query's throughput is reported beside the
 * embedder's `embedQuery` alone at the same concurrency: the ceiling the model sets.
 */
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createEmbedder } from '../src/llm/embeddings/create-embedder.js';
import { createScratchStore, type StoreKind } from '../test/support/stores.js';
import { startServeProcess, startTsxProcess, type WorkerProcess } from '../test/support/worker-process.js';
import { INSTANT_MODEL } from './agent-query.js';
import { readQueries } from './covid-qa-fixture.js';
import { figure, goal, megabytes, ms, ratio, type Figure, type Goal } from './figures.js';
import { seedAgent } from './seeded-agent.js';

export interface LoadOptions {
  stores: readonly StoreKind[];
  /** Seconds each route is loaded (after a warm-up of its own). */
  durationSeconds: number;
  /** Articles ingested into the datastore the query routes search. */
  articles: number;
  /** PARLEY_MODELS entry of the model that answers at once. */
  instantModelUrl: string;
  log: (line: string) => void;
}

export interface LoadCase {
  name: string;
  connections: number;
  requestsPerSecond: Figure;
  p50: Figure;
  p99: Figure;
  max: Figure;
  /** The slowest request over the median one. */
  maxOverP50: Figure;
  requests: Figure;
  /** Connection errors and timeouts, and answers that were not 2xx. */
  errors: Figure;
  non2xx: Figure;
  rssBefore: Figure;
  rssAfter: Figure;
}

export interface LoadStoreResult {
  store: StoreKind;
  logLevel: string;
  /** The bare route, measured right before this store's cases. */
  baseline: LoadCase;
  cases: LoadCase[];
  agentReadOverBaseline: Figure;
  /** `embedQuery` alone in this process, same thread count and concurrency as the datastore query case. */
  embedQueryAlone: { connections: number; queriesPerSecond: Figure };
  datastoreQueryOverEmbedQuery: Figure;
  goals: Goal[];
}

const AGENT_READ_CONNECTIONS = 100;
/**
 * Closed-loop clients keep every connection busy, so latency there is connections / throughput (Little's
 * law): 100 connections at 4,000 req/s wait 25 ms whatever the server does. What one request costs when
 * requests do not queue behind each other is read apart, with few connections. (autocannon's fixed rate
 * sends each second's quota in a burst, which queues just the same.)
 */
const LIGHT_CONNECTIONS = 4;
const QUERY_CONNECTIONS = 20;
const MIXED_CONNECTIONS = 30;
const WARM_UP_SECONDS = 3;

interface Target {
  url: string;
  key?: string;
}

interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  /** A new body for every request (questions in turn). */
  body?: () => unknown;
}

async function fire(target: Target, requests: readonly LoadRequest[], connections: number, seconds: number): Promise<autocannon.Result> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (target.key !== undefined) headers.authorization = `Bearer ${target.key}`;
  return autocannon({
    url: target.url,
    connections,
    duration: seconds,
    timeout: 10,
    requests: requests.map((request) => ({
      method: request.method,
      path: request.path,
      headers,
      ...(request.body === undefined ? {} : { setupRequest: (sent: autocannon.Request) => ({ ...sent, body: JSON.stringify(request.body!()) }) }),
    })),
  });
}

async function measure(
  name: string,
  target: Target,
  server: { rssBytes(): number },
  requests: readonly LoadRequest[],
  connections: number,
  seconds: number,
): Promise<LoadCase> {
  await fire(target, requests, connections, Math.min(WARM_UP_SECONDS, seconds));
  const rssBefore = server.rssBytes();
  const result = await fire(target, requests, connections, seconds);
  const rssAfter = server.rssBytes();
  return {
    name,
    connections,
    requestsPerSecond: figure(result.requests.average, 'req/s'),
    p50: ms(result.latency.p50),
    p99: ms(result.latency.p99),
    max: ms(result.latency.max),
    maxOverP50: ratio(result.latency.max, Math.max(1, result.latency.p50)),
    requests: figure(result.requests.total, 'count'),
    errors: figure(result.errors + result.timeouts, 'count'),
    non2xx: figure(result.non2xx, 'count'),
    rssBefore: megabytes(rssBefore),
    rssAfter: megabytes(rssAfter),
  };
}

/** `embedQuery` calls per second with `connections` of them in flight, on the questions in turn. */
async function embedQueriesPerSecond(questions: readonly string[], connections: number, seconds: number): Promise<number> {
  const embedder = createEmbedder({ threads: os.availableParallelism() });
  try {
    let next = 0;
    const question = () => questions[next++ % questions.length]!;
    for (let i = 0; i < connections; i += 1) await embedder.embedQuery(question());
    let done = 0;
    const until = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < until) {
          await embedder.embedQuery(question());
          done += 1;
        }
      }),
    );
    return done / seconds;
  } finally {
    await embedder.close();
  }
}

async function loadStore(store: StoreKind, options: LoadOptions, logLevel: string): Promise<LoadStoreResult> {
  const scratch = await createScratchStore(store);
  let baseline: WorkerProcess | undefined;
  let parley: WorkerProcess | undefined;
  try {
    options.log(`load ${store}: seeding ${options.articles} articles`);
    const models = JSON.stringify({ [INSTANT_MODEL]: { provider: 'openai-compatible', model: 'instant', baseURL: options.instantModelUrl } });
    const seeded = await seedAgent(store, scratch, options.articles, models);
    const seconds = options.durationSeconds;

    const bare = await startTsxProcess(
      ['bench/load/bare-server.ts', path.join(scratch.dataDir, 'baseline.sqlite')],
      { PORT: '0', PARLEY_LOG_LEVEL: logLevel },
      /Baseline listening at (http:\/\/\S+)/,
    );
    baseline = bare.child;
    options.log(`load ${store}: baseline, ${AGENT_READ_CONNECTIONS} connections, ${seconds} s`);
    const read = (id: string): LoadRequest => ({ method: 'GET', path: `/agents/${id}` });
    const baselineCase = await measure(
      'bare Fastify + SQLite read',
      { url: bare.started[1]! },
      baseline,
      [read('bench-agent')],
      AGENT_READ_CONNECTIONS,
      seconds,
    );
    await baseline.stop();
    baseline = undefined;

    const serving = await startServeProcess(
      {
        ...scratch.env,
        PARLEY_LOG_LEVEL: logLevel,
        PARLEY_QUERY_CACHE_SIZE: '0',
        // One key sends everything: the limit would measure itself, not the server.
        PARLEY_RATE_LIMIT_KEY_PER_MINUTE: '100000000',
        PARLEY_MODELS: models,
      },
      { withWorkers: true },
    );
    parley = serving;
    const target = { url: serving.url, key: seeded.key };
    const questions = readQueries();
    let next = 0;
    const question = () => questions[next++ % questions.length]!;
    const datastoreQuery: LoadRequest = {
      method: 'POST',
      path: `/datastores/${seeded.datastoreId}/query`,
      body: () => ({ query: question(), topK: 5 }),
    };
    const agentAnswer: LoadRequest = { method: 'POST', path: `/agents/${seeded.agentId}/query`, body: () => ({ query: question() }) };
    const plan: [string, LoadRequest[], number][] = [
      ['GET /agents/{id}', [read(seeded.agentId)], AGENT_READ_CONNECTIONS],
      ['POST /datastores/{id}/query', [datastoreQuery], QUERY_CONNECTIONS],
      ['POST /agents/{id}/query (instant model)', [agentAnswer], QUERY_CONNECTIONS],
      ['mixed: read, query, answer in turn', [read(seeded.agentId), datastoreQuery, agentAnswer], MIXED_CONNECTIONS],
    ];
    const cases: LoadCase[] = [];
    for (const [name, requests, connections] of plan) {
      options.log(`load ${store}: ${name}, ${connections} connections, ${seconds} s`);
      cases.push(await measure(name, target, serving, requests, connections, seconds));
    }
    options.log(`load ${store}: GET /agents/{id}, ${LIGHT_CONNECTIONS} connections, ${seconds} s`);
    const light = await measure(
      `GET /agents/{id}, ${LIGHT_CONNECTIONS} connections`,
      target,
      serving,
      [read(seeded.agentId)],
      LIGHT_CONNECTIONS,
      seconds,
    );
    cases.push(light);
    await serving.stop();
    parley = undefined;

    options.log(`load ${store}: embedQuery alone, ${QUERY_CONNECTIONS} in flight`);
    const embedRate = await embedQueriesPerSecond(questions, QUERY_CONNECTIONS, Math.min(seconds, 10));
    const agentRead = cases[0]!;
    const datastoreCase = cases[1]!;
    const allCases = [baselineCase, ...cases];
    return {
      store,
      logLevel,
      baseline: baselineCase,
      cases,
      agentReadOverBaseline: ratio(agentRead.requestsPerSecond.value, baselineCase.requestsPerSecond.value),
      embedQueryAlone: { connections: QUERY_CONNECTIONS, queriesPerSecond: figure(embedRate, 'req/s') },
      datastoreQueryOverEmbedQuery: ratio(datastoreCase.requestsPerSecond.value, embedRate),
      goals: [
        goal(
          `GET /agents/{id} ≥ 60 % of the bare route's throughput (${store})`,
          agentRead.requestsPerSecond.value >= 0.6 * baselineCase.requestsPerSecond.value,
        ),
        goal(`GET /agents/{id} p99 < 10 ms at ${AGENT_READ_CONNECTIONS} connections, saturated (${store})`, agentRead.p99.value < 10),
        goal(`GET /agents/{id} p99 < 10 ms at ${LIGHT_CONNECTIONS} connections (${store})`, light.p99.value < 10),
        goal(
          `no errors (${store})`,
          allCases.every((c) => c.errors.value === 0 && c.non2xx.value === 0),
        ),
        goal(
          `no request slower than 10× its case's p50 (${store})`,
          allCases.every((c) => c.maxOverP50.value <= 10),
        ),
      ],
    };
  } finally {
    await baseline?.stop();
    await parley?.stop();
    await scratch.drop();
  }
}

export async function runLoadBench(options: LoadOptions): Promise<LoadStoreResult[]> {
  // The default level: what a server started without settings logs.
  const logLevel = 'info';
  const results: LoadStoreResult[] = [];
  for (const store of options.stores) results.push(await loadStore(store, options, logLevel));
  return results;
}
