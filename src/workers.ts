import pino from 'pino';
import type { Config, LogLevel } from './config.js';
import { IngestDatasourceHandler } from './domain/ingestion/ingest-datasource.js';
import { INGEST_JOB } from './domain/ingestion/ingest-job.js';
import { RunningIngests } from './domain/ingestion/running-ingests.js';
import { SiteSync } from './domain/ingestion/site-sync.js';
import { RefreshDatasourceHandler } from './domain/ingestion/refresh-datasource.js';
import { REFRESH_JOB } from './domain/ingestion/refresh-schedule.js';
import { DeliverWebhookHandler } from './events/deliver-webhook.js';
import { DELIVER_WEBHOOK_JOB, SEND_CHANNEL_MESSAGE_JOB, SEND_EMAIL_JOB } from './events/delivery-plan.js';
import { AnswerChannelMessageHandler } from './domain/channel-connections/answer-channel-message.js';
import { ANSWER_CHANNEL_MESSAGE_JOB, POLL_CHANNEL_JOB, pollJob } from './domain/channel-connections/channel-jobs.js';
import { PollChannelHandler } from './domain/channel-connections/poll-channel.js';
import { SendChannelMessageHandler } from './domain/channel-connections/send-channel-message.js';
import { MailDrop } from './domain/channel-connections/mail-drop.js';
import { startMailListener, type MailListener } from './channels/mail/smtp-listener.js';
import { CONNECTABLE_CHANNELS } from './contract/channel-connections.js';
import { EventDispatcher } from './events/event-dispatcher.js';
import { SendNotificationEmailHandler } from './events/send-notification-email.js';
import { JobRunner, type EndedAttempt } from './jobs/job-runner.js';
import { ModelError } from './llm/model-error.js';
import { PARSE_LIMITS } from './rag/ingest/parse/parse-limits.js';
import { PreparePool } from './rag/ingest/prepare-pool.js';
import { standardOutputLog, tempDirOf, type Core } from './parley.js';

/** Pollers running at once in a process: each mostly waits on a mailbox or an update feed. */
const POLLER_SLOTS = 50;
/** One pass of a poller waits this long for news before it looks at its connection again. */
const POLL_WAIT_MS = 25_000;

/** Requests one site crawl keeps in flight (one while the site's robots.txt asks for a Crawl-delay). */
const SITE_REQUESTS_IN_FLIGHT = 2;

/** A week of dispatched events stays for inspection; deliveries keep their own copy of what was sent. */
const OUTBOX_RETENTION_MS = 7 * 24 * 3_600_000;

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
  /** The name the indexing runner claims jobs under (host, process and a random part), as job records show it. */
  owner: string;
  /** The port the built-in SMTP listener took (PARLEY_MAIL_INBOUND_PORT, 0 for any); null when it is off. */
  mailInboundPort: number | null;
  stop(): Promise<void>;
}

/**
 * The background workers of a process (`parley start`, `parley worker`): every job kind with the handler
 * that runs it, the outbox dispatcher, and which of them each in-process signal wakes. Deliveries have a
 * runner of their own, so a slow receiver never holds up indexing.
 */
export async function startWorkers(config: Config, core: Core, onError: (error: unknown) => void): Promise<RunningWorkers> {
  const { store, signals, services } = core;
  const { jobs, events, ingestion } = config;
  const embedder = await core.embedder();
  // A parse thread for every job that may run at once (the slot kept for an idle workspace too): a slow
  // document holds its own thread, never the one another job is waiting for.
  const preparePool = new PreparePool({ threads: jobs.concurrency + 1 });
  const runningIngests = new RunningIngests(store.datasources);
  const common = {
    leaseMs: jobs.leaseMs,
    pollMs: 500,
    backoff: { baseMs: jobs.retryBaseMs, maxMs: jobs.retryMaxMs },
    onError,
    onAttemptEnded: logAttempts(config.logLevel),
  };

  const indexing = new JobRunner(
    store.jobs,
    {
      [INGEST_JOB]: new IngestDatasourceHandler(store, embedder, preparePool, runningIngests, {
        chunking: { maxTokens: ingestion.chunkTokens, overlapTokens: ingestion.chunkOverlapTokens },
        parseLimits: { ...PARSE_LIMITS, seconds: ingestion.parseSeconds ?? PARSE_LIMITS.seconds },
        tempDir: tempDirOf(config),
        maxDownloadBytes: ingestion.maxUploadBytes,
        outbound: core.outbound,
        quotaChars: ingestion.quotaChars,
        embedBatch: 64,
        sites: new SiteSync(store, {
          outbound: core.outbound,
          tempDir: tempDirOf(config),
          maxDownloadBytes: ingestion.maxUploadBytes,
          maxAttempts: jobs.maxAttempts,
          concurrency: SITE_REQUESTS_IN_FLIGHT,
          minDelayMs: 0,
          signals,
        }),
      }),
      [REFRESH_JOB]: new RefreshDatasourceHandler(services.datasources),
    },
    {
      ...common,
      concurrency: jobs.concurrency,
      idleWorkspaceSlot: true,
      // The datasource shows our message; what the embeddings provider answered is for the operator.
      onAttemptFailed: (_job, error) => {
        if (ModelError.isInstance(error)) onError(error);
      },
    },
  );
  const deliveries = new JobRunner(
    store.jobs,
    {
      [DELIVER_WEBHOOK_JOB]: new DeliverWebhookHandler(store, { policy: core.outbound, timeoutMs: events.webhookTimeoutMs }),
      [SEND_EMAIL_JOB]: new SendNotificationEmailHandler(store, core.mailer, core.publicUrl),
      [SEND_CHANNEL_MESSAGE_JOB]: new SendChannelMessageHandler(store, services.channelConnections),
      [ANSWER_CHANNEL_MESSAGE_JOB]: new AnswerChannelMessageHandler(store, services.channelConnections, services.answers),
    },
    { ...common, concurrency: events.deliveryConcurrency },
  );
  const pollers = new JobRunner(
    store.jobs,
    {
      [POLL_CHANNEL_JOB]: new PollChannelHandler(store, services.channelConnections, services.channelInbox, signals, {
        waitMs: POLL_WAIT_MS,
        pauseAfterFailureMs: jobs.retryBaseMs,
      }),
    },
    { ...common, concurrency: POLLER_SLOTS },
  );
  const dispatcher = new EventDispatcher(store, {
    mailEnabled: core.mailer !== null,
    maxAttempts: events.deliveryMaxAttempts,
    pollMs: 500,
    batchSize: 100,
    retentionMs: OUTBOX_RETENTION_MS,
    onQueued: () => deliveries.wake(),
    onError,
  });

  deliveries.start();
  dispatcher.start();
  await ensurePollers(core);
  pollers.start();
  const mailListener = await listenForMail(config, core, onError);
  if (mailListener !== undefined) services.channelConnections.listeningForMail(mailListener.port);
  await core.services.datasources.reembedIfModelChanged(embedder.modelId);
  await core.services.datasources.reembedIfLayoutChanged(embedder.maxInputTokens, ingestion.chunkTokens);
  indexing.start();
  // Who wakes whom in this process; the use cases of other processes are seen at the next poll.
  const unsubscribe = [
    signals.jobEnqueued.subscribe(() => {
      indexing.wake();
      deliveries.wake();
      pollers.wake();
    }),
    signals.eventRecorded.subscribe(() => dispatcher.wake()),
    signals.datasourceSuperseded.subscribe((datasourceId, liveGeneration) => runningIngests.supersede(datasourceId, liveGeneration)),
  ];
  return {
    owner: indexing.owner,
    mailInboundPort: mailListener?.port ?? null,
    async stop() {
      for (const stopHearing of unsubscribe) stopHearing();
      await mailListener?.close();
      await Promise.all([indexing.stop(), pollers.stop(), dispatcher.stop().then(() => deliveries.stop())]);
      await preparePool.close();
    },
  };
}

/**
 * Every enabled connection that pulls has its poller queued: one that failed for good (its attempts spent on
 * crashes) starts again with the process. A connection whose secrets no longer open waits for a person.
 */
async function ensurePollers(core: Core): Promise<void> {
  const { store, services } = core;
  for (const record of await store.channelConnections.listEnabled(CONNECTABLE_CHANNELS)) {
    let pulls: boolean;
    try {
      pulls = services.channelConnections.connectorOf(record).pulls(services.channelConnections.open(record));
    } catch {
      continue;
    }
    if (pulls) await store.jobs.ensureQueued(pollJob(record));
  }
}

/**
 * The built-in SMTP listener, when PARLEY_MAIL_INBOUND_PORT is set: mail forwarded to the agents' addresses.
 * One process listens; another worker process finding the port taken carries on without it.
 */
async function listenForMail(config: Config, core: Core, onError: (error: unknown) => void): Promise<MailListener | undefined> {
  const { mailInbound, maxAttachmentBytes } = config.channels;
  if (mailInbound === null) return undefined;
  const drop = new MailDrop(core.store, core.services.channelInbox, { maxAttachmentBytes });
  try {
    return await startMailListener({
      ...mailInbound,
      // Attachments are capped one by one; the message as a whole may hold a few of them.
      maxMessageBytes: maxAttachmentBytes * 4,
      accepts: (recipient) => drop.accepts(recipient),
      onMail: (recipient, raw) => drop.deliver(recipient, raw),
      onError,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    onError(new Error(`PARLEY_MAIL_INBOUND_PORT ${mailInbound.port} is taken: mail is received by the process holding it`));
    return undefined;
  }
}
