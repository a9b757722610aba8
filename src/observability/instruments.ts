import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's Prometheus metrics, one registry per process as Prometheus scrapes processes: every
 * layer records into the instruments below, and `GET /metrics` (or the metrics port) renders them.
 * Labels stay few and bounded (route patterns, never URLs; model names; job kinds), so series do not
 * grow with traffic.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'parley_' });

/** Seconds buckets from a cache hit to a slow model answer. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export const httpRequestDuration = new Histogram({
  name: 'parley_http_request_duration_seconds',
  help: 'Time from a request arriving to its answer being sent, by route pattern and status',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const httpRequestsInFlight = new Gauge({
  name: 'parley_http_requests_in_flight',
  help: 'Requests received and not yet answered',
  registers: [registry],
});

export const openEventStreams = new Gauge({
  name: 'parley_event_streams_open',
  help: 'Open server-sent event streams: members’ workspace streams and visitors’ conversation streams',
  labelNames: ['stream'] as const,
  registers: [registry],
});

export const embeddingDuration = new Histogram({
  name: 'parley_embedding_duration_seconds',
  help: 'Time of one embedding call: a search query, or a batch of document chunks',
  labelNames: ['kind'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const embeddedTexts = new Counter({
  name: 'parley_embedded_texts_total',
  help: 'Texts turned into vectors: search queries and document chunks',
  labelNames: ['kind'] as const,
  registers: [registry],
});

export const queryVectorCache = new Counter({
  name: 'parley_query_vector_cache_total',
  help: 'Search queries whose vector was found in the cache (hit) or had to be computed (miss)',
  labelNames: ['result'] as const,
  registers: [registry],
});

export const ingestedChunks = new Counter({
  name: 'parley_ingested_chunks_total',
  help: 'Chunks indexed by ingestion (rate() gives chunks per second)',
  registers: [registry],
});

export const modelDuration = new Histogram({
  name: 'parley_model_duration_seconds',
  help: 'Time of one answer by a chat model, from the call to its last token',
  labelNames: ['model', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const modelTokens = new Counter({
  name: 'parley_model_tokens_total',
  help: 'Tokens sent to (prompt) and received from (completion) chat models',
  labelNames: ['model', 'direction'] as const,
  registers: [registry],
});

export const rateLimitStore = new Gauge({
  name: 'parley_rate_limit_store',
  help: 'Where rate-limit counters are kept now: 1 for redis (shared by every process) or memory (this process, Redis unreachable or not configured)',
  labelNames: ['store'] as const,
  registers: [registry],
});

export const rateLimitFallbacks = new Counter({
  name: 'parley_rate_limit_fallbacks_total',
  help: 'Times Redis stopped answering and rate limits fell back to counting in memory',
  registers: [registry],
});

/** What the queue and the outbox hold at the moment of a scrape: read from the store then. */
export interface StoreReadings {
  jobs: ReadonlyArray<{ kind: string; queued: number; running: number; oldestQueuedAgeSeconds: number }>;
  pendingEvents: number;
  oldestPendingEventAgeSeconds: number;
}

let readStore: (() => Promise<StoreReadings>) | undefined;

/** Where scrapes read the queue and outbox from (the process's store); unset, those gauges stay empty. */
export function readStoreWith(read: (() => Promise<StoreReadings>) | undefined): void {
  readStore = read;
}

/** One store reading per scrape, shared by the gauges that show it. */
let reading: Promise<StoreReadings | undefined> | undefined;
const currentReading = (): Promise<StoreReadings | undefined> => (reading ??= readStore?.() ?? Promise.resolve(undefined));

new Gauge({
  name: 'parley_jobs',
  help: 'Jobs in the queue by kind and state (queued: waiting or due; running: leased to a worker)',
  labelNames: ['kind', 'state'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const job of (await currentReading())?.jobs ?? []) {
      this.set({ kind: job.kind, state: 'queued' }, job.queued);
      this.set({ kind: job.kind, state: 'running' }, job.running);
    }
  },
});

new Gauge({
  name: 'parley_job_oldest_queued_age_seconds',
  help: 'Age of the oldest due job still waiting for a worker, by kind (0 when none waits)',
  labelNames: ['kind'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const job of (await currentReading())?.jobs ?? []) this.set({ kind: job.kind }, job.oldestQueuedAgeSeconds);
  },
});

new Gauge({
  name: 'parley_event_outbox_pending',
  help: 'Events written and not yet handed to webhooks and e-mail',
  registers: [registry],
  async collect() {
    const current = await currentReading();
    if (current !== undefined) this.set(current.pendingEvents);
  },
});

new Gauge({
  name: 'parley_event_outbox_lag_seconds',
  help: 'Age of the oldest event not yet handed to webhooks and e-mail (0 when none waits)',
  registers: [registry],
  async collect() {
    const current = await currentReading();
    if (current !== undefined) this.set(current.oldestPendingEventAgeSeconds);
  },
});

/** The metrics in Prometheus's text format, the store read once for this scrape. */
export async function renderMetrics(): Promise<string> {
  try {
    return await registry.metrics();
  } finally {
    reading = undefined;
  }
}

export const METRICS_CONTENT_TYPE = registry.contentType;
