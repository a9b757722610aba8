import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config, LogLevel } from './config.js';
import { createServices, type Services } from './domain/services.js';
import { buildServer, type LogStream } from './http/server.js';
import { INGEST_JOB } from './jobs/ingest-job.js';
import type { EndedAttempt, JobRunner } from './jobs/job-runner.js';
import pino from 'pino';
import { createModelRegistry, type ModelRegistry } from './llm/chat/model-registry.js';
import type { Embedder } from './llm/embeddings/embedder.js';
import { ModelError } from './llm/model-error.js';
import { PARSE_LIMITS } from './rag/ingest/parse/parse-limits.js';
import { openStore } from './store/open-store.js';
import { TempFolderSweeper } from './store/files/temp-folder-sweeper.js';
import { renderInvitationEmail } from './events/invitation-email.js';
import { renderPasswordResetEmail } from './events/password-reset-email.js';
import { Mailer } from './events/mailer.js';
import { OutboundPolicy } from './net/address-policy.js';
import { guardedFetch } from './net/guarded-fetch.js';
import type { Store } from './store/store.js';
import { readStoreWith, type StoreReadings } from './observability/instruments.js';
import { recordServerUrl } from './recorded-server-url.js';
import { loadSecretKey } from './secret-key-file.js';


/** Store, models and use cases, opened and migrated: what every CLI command starts from. */
export interface Core {
  store: Store;
  /** Which model serves each model name. */
  models: ModelRegistry;
  /** Where the process may connect on its own (PARLEY_OUTBOUND_ALLOW): every outbound request goes through it. */
  outbound: OutboundPolicy;
  /** The address people reach Parley at; the one the server got, when none was configured. */
  publicUrl: string;
  services: Services;
  /** The embedding model, started on first use (it spins up worker threads). */
  embedder(): Promise<Embedder>;
  /** Set by in-process workers so new jobs start at once instead of at the next poll. */
  onEnqueued: () => void;
  /** Set by in-process workers so a new event is handed on at once. */
  onEvent: () => void;
  /** Set by in-process workers so a deleted or re-synced datasource's running job stops at once. */
  onSuperseded: (datasourceId: string, liveGeneration?: number) => void;
  close(): Promise<void>;
}

const tempDirOf = (config: Config) => path.join(config.dataDir, 'tmp');

/** Files in the temporary folder untouched this long are a crashed process's leftovers, swept this often. */
const ORPHANED_TEMP_FILE_MS = 15 * 60_000;

export async function openCore(config: Config): Promise<Core> {
  const secretKey = await loadSecretKey(config.secretKey, config.dataDir);
  const store = await openStore(config.store, config.dataDir);
  const tempFiles = new TempFolderSweeper(tempDirOf(config), {
    orphanAfterMs: ORPHANED_TEMP_FILE_MS,
    everyMs: ORPHANED_TEMP_FILE_MS,
    onError: (error) => console.error('parley temporary files:', error),
  });
  await tempFiles.start();
  const outbound = new OutboundPolicy(config.outbound);
  const fetch = guardedFetch(outbound);
  const models = createModelRegistry({ ...config.models, fetch });
  const { smtpUrl, mailFrom, smtpTimeoutMs } = config.events;
  // Invitations and reset links are sent from the API process itself: a person waits for them.
  const mailer = smtpUrl === null ? undefined : new Mailer({ smtpUrl, from: mailFrom, timeoutMs: smtpTimeoutMs, policy: outbound });
  let embedder: Promise<Embedder> | undefined;
  const core: Core = {
    store,
    models,
    outbound,
    publicUrl: config.events.publicUrl,
    services: createServices(store, {
      tempDir: tempDirOf(config),
      maxAttempts: config.jobs.maxAttempts,
      outbound,
      onEnqueued: () => core.onEnqueued(),
      onEvent: () => core.onEvent(),
      onBackgroundError: (error) => console.error('parley events:', error),
      onSuperseded: (datasourceId, liveGeneration) => core.onSuperseded(datasourceId, liveGeneration),
      embedder: () => core.embedder(),
      queryCacheSize: config.embeddings.queryCacheSize,
      models,
      secretKey,
      fetch,
      queryQuota: config.models.queryQuota,
      publicQueryMaxChars: config.publicAccess.queryMaxChars,
      knowledgeGapScore: config.analytics.knowledgeGapScore,
      rateLimits: config.publicAccess.rateLimits,
      emailEnabled: config.events.smtpUrl !== null,
      deliveryMaxAttempts: config.events.deliveryMaxAttempts,
      publicUrl: () => core.publicUrl,
      signUpOpen: config.signUpOpen,
      invitationMailer: mailer && ((invitation) => mailer.send([invitation.to], renderInvitationEmail(invitation))),
      resetMailer: mailer && ((reset) => mailer.send([reset.to], renderPasswordResetEmail(reset))),
    }),
    // Loaded on demand: CLI commands such as `keys` should start in a blink.
    embedder: () => (embedder ??= import('./llm/embeddings/create-embedder.js').then((m) => m.createEmbedder({ ...config.embeddings, fetch }))),
    onEnqueued: () => undefined,
    onEvent: () => undefined,
    onSuperseded: () => undefined,
    async close() {
      tempFiles.stop();
      readStoreWith(undefined);
      await core.services.eventStreams.stop();
      await core.services.tokenGenerations.stop();
      mailer?.close();
      await (await embedder)?.close();
      await store.close();
    },
  };
  readStoreWith(() => storeReadings(store));
  return core;
}

/** What the queue and the outbox hold now, for a metrics scrape. */
async function storeReadings(store: Store): Promise<StoreReadings> {
  const now = new Date();
  const [jobs, pending] = await Promise.all([store.jobs.queueReadings(now.toISOString()), store.outbox.pending()]);
  const ageOf = (at: string | null) => (at === null ? 0 : Math.max(0, (now.getTime() - Date.parse(at)) / 1000));
  return {
    jobs: jobs.map(({ kind, queued, running, oldestDueAt }) => ({ kind, queued, running, oldestQueuedAgeSeconds: ageOf(oldestDueAt) })),
    pendingEvents: pending.count,
    oldestPendingEventAgeSeconds: ageOf(pending.oldestCreatedAt),
  };
}

/**
 * Stops the server the way a deployment wants on SIGTERM: no new connections (and 503 on kept-alive
 * ones), live streams told to reconnect elsewhere and ended, requests under way given `timeoutMs` to
 * finish, then cut.
 */
export async function closeGracefully(app: FastifyInstance, timeoutMs: number): Promise<void> {
  const cut = setTimeout(() => app.server.closeAllConnections(), timeoutMs);
  try {
    await app.close();
  } finally {
    clearTimeout(cut);
  }
}

export interface RunningServer {
  app: FastifyInstance;
  /** The base URL the server answers on, with the port it really got. */
  url: string;
}

/**
 * Standard output for log lines, written asynchronously (lines that pile up while a write is under way go
 * out together, and a slow reader no longer holds up the process; pino flushes it on exit). One per
 * process: the API's and the workers' lines share it, so two writers never interleave on the same pipe.
 */
let standardOutput: LogStream | undefined;
const standardOutputLog = (): LogStream => (standardOutput ??= pino.destination({ dest: 1, sync: false }));

export async function startServer(config: Config, core: Core, { logStream }: { logStream?: LogStream } = {}): Promise<RunningServer> {
  const tls = config.server.tls ?? undefined;
  const app = await buildServer({
    services: core.services,
    store: core.store,
    publicUrl: config.events.publicUrl,
    logLevel: config.logLevel,
    logStream: logStream ?? standardOutputLog(),
    bodyLimitBytes: config.bodyLimitBytes,
    maxUploadBytes: config.ingestion.maxUploadBytes,
    tempDir: tempDirOf(config),
    redisUrl: config.publicAccess.redisUrl,
    tls: tls && { cert: await fs.readFile(tls.certFile), key: await fs.readFile(tls.keyFile) },
    trustProxy: config.server.trustProxy,
    metricsToken: config.metrics.token,
  });
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `${tls ? 'https' : 'http'}://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  if (config.events.publicUrlIsLocal) {
    core.publicUrl = url;
    await recordServerUrl(config.dataDir, url);
  }
  return { app, url };
}

/**
 * A JSON line per job attempt on standard output, like the API's request lines: job, kind, outcome,
 * duration and the request that caused it (`reqId`, as the API logs it), so one id finds both.
 */
function logAttempts(level: LogLevel): (attempt: EndedAttempt) => void {
  const log = pino({ level }, standardOutputLog());
  return ({ requestId, ...attempt }) => {
    const line = { ...attempt, ...(requestId === null ? {} : { reqId: requestId }) };
    if (attempt.outcome === 'failed') log.error(line, 'job attempt ended');
    else if (attempt.outcome === 'retry') log.warn(line, 'job attempt ended');
    else log.info(line, 'job attempt ended');
  };
}

export interface RunningWorkers {
  runner: JobRunner;
  stop(): Promise<void>;
}

/**
 * Background workers: ingestion jobs; and, apart from them so a slow receiver never holds up indexing,
 * the event dispatcher with the runner that sends webhook deliveries and notification e-mail.
 */
export async function startWorkers(config: Config, core: Core, onError: (error: unknown) => void): Promise<RunningWorkers> {
  const [{ IngestDatasourceHandler }, { RunningIngests }, { JobRunner }, { PreparePool }, events] = await Promise.all([
    import('./jobs/handlers/ingest-datasource.js'),
    import('./jobs/handlers/running-ingests.js'),
    import('./jobs/job-runner.js'),
    import('./rag/ingest/prepare-pool.js'),
    import('./event-workers.js'),
  ]);
  const embedder = await core.embedder();
  // A parse thread for every job that may run at once (the slot kept for an idle workspace too): a slow
  // document holds its own thread, never the one another job is waiting for.
  const preparePool = new PreparePool({ threads: config.jobs.concurrency + 1 });
  const running = new RunningIngests(core.store.datasources);
  const ingest = new IngestDatasourceHandler(core.store, embedder, preparePool, running, {
    chunking: { maxTokens: config.ingestion.chunkTokens, overlapTokens: config.ingestion.chunkOverlapTokens },
    parseLimits: { ...PARSE_LIMITS, seconds: config.ingestion.parseSeconds ?? PARSE_LIMITS.seconds },
    tempDir: tempDirOf(config),
    maxDownloadBytes: config.ingestion.maxUploadBytes,
    outbound: core.outbound,
    quotaChars: config.ingestion.quotaChars,
    embedBatch: 64,
  });
  const backoff = { baseMs: config.jobs.retryBaseMs, maxMs: config.jobs.retryMaxMs };
  const onAttemptEnded = logAttempts(config.logLevel);
  const runner = new JobRunner(core.store.jobs, { [INGEST_JOB]: ingest }, {
    onAttemptEnded,
    concurrency: config.jobs.concurrency,
    idleWorkspaceSlot: true,
    leaseMs: config.jobs.leaseMs,
    pollMs: 500,
    backoff,
    onError,
    // The datasource shows our message; what the embeddings provider answered is for the operator.
    onAttemptFailed: (_job, error) => {
      if (ModelError.isInstance(error)) onError(error);
    },
  });
  const eventWorkers = events.startEventWorkers(config, core.store, { backoff, onError, onAttemptEnded, outbound: core.outbound });
  await core.services.datasources.reembedIfModelChanged(embedder.modelId);
  await core.services.datasources.reembedIfLayoutChanged(embedder.maxInputTokens, config.ingestion.chunkTokens);
  runner.start();
  core.onEnqueued = () => {
    runner.wake();
    eventWorkers.wake();
  };
  core.onEvent = () => eventWorkers.wakeDispatcher();
  core.onSuperseded = (datasourceId, liveGeneration) => running.supersede(datasourceId, liveGeneration);
  return {
    runner,
    async stop() {
      core.onEnqueued = () => undefined;
      core.onEvent = () => undefined;
      core.onSuperseded = () => undefined;
      await Promise.all([runner.stop(), eventWorkers.stop()]);
      await preparePool.close();
    },
  };
}
