import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { createServices, type Services } from './domain/services.js';
import { buildServer, type LogStream } from './http/server.js';
import pino from 'pino';
import { createModelRegistry, type ModelRegistry } from './llm/chat/model-registry.js';
import type { Embedder } from './llm/embeddings/embedder.js';
import { openStore } from './store/open-store.js';
import { TempFolderSweeper } from './store/files/temp-folder-sweeper.js';
import { renderInvitationEmail } from './events/invitation-email.js';
import { renderPasswordResetEmail } from './events/password-reset-email.js';
import { Mailer } from './events/mailer.js';
import { MailConnector } from './channels/mail/mail-connector.js';
import { SlackConnector } from './channels/slack/slack-connector.js';
import { CrispConnector } from './channels/crisp/crisp-connector.js';
import { TelegramConnector } from './channels/telegram/telegram-connector.js';
import { WhatsAppConnector } from './channels/whatsapp/whatsapp-connector.js';
import { OutboundPolicy } from './net/address-policy.js';
import { guardedFetch } from './net/guarded-fetch.js';
import type { Store } from './store/store.js';
import { readStoreWith, type StoreReadings } from './observability/instruments.js';
import { recordServerUrl } from './recorded-server-url.js';
import { loadSecretKey } from './secret-key-file.js';
import { createSignals, type Signals } from './domain/signals.js';
import { loadTextTools } from './text/load-text-tools.js';

/** Store, models and use cases, opened and migrated: what every CLI command starts from. */
export interface Core {
  store: Store;
  /** Which model serves each model name. */
  models: ModelRegistry;
  /** Where the process may connect on its own (PARLEY_OUTBOUND_ALLOW): every outbound request goes through it. */
  outbound: OutboundPolicy;
  /** The address people reach Parley at, the base of every link it makes: PARLEY_PUBLIC_URL, else the server's own. */
  publicUrl(): string;
  /**
   * The server's own address (where it listens, or where the last server on this data directory did): the
   * public URL from now on, when none is configured.
   */
  useServerUrl(url: string): void;
  /** The process's one SMTP connection (invitations, reset links, notifications); null without PARLEY_SMTP_URL. */
  mailer: Mailer | null;
  /** Who, in this process, hears of queued jobs, recorded events and overtaken datasources. */
  signals: Signals;
  services: Services;
  /** The embedding model, started on first use (it spins up worker threads). */
  embedder(): Promise<Embedder>;
  /**
   * Loads what the first answer needs (the embedding model, the tokenizer, the text tools and, with `search` (a process
   * that serves the API), the search indexes of the datastores changed last), unless PARLEY_EMBEDDINGS_PRELOAD is off:
   * what `parley start`, `serve` and `worker` do before they report ready. Tests and CLI commands skip it.
   */
  preload(use: { search: boolean }): Promise<void>;
  close(): Promise<void>;
}

export const tempDirOf = (config: Config) => path.join(config.dataDir, 'tmp');

/** Datastores whose search indexes a start loads before it reports ready (the ones changed last). */
const WARM_DATASTORES = 10;

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
  // One SMTP connection for the process: invitations and reset links (sent by the API itself, a person
  // waits for them) and the workers' notifications.
  const mailer = smtpUrl === null ? null : new Mailer({ smtpUrl, from: mailFrom, timeoutMs: smtpTimeoutMs, policy: outbound });
  let embedder: Promise<Embedder> | undefined;
  // Where links point: PARLEY_PUBLIC_URL, else the server's own address once it is known (`useServerUrl`).
  let linkBase = config.events.publicUrl;
  const publicUrl = () => linkBase;
  const signals = createSignals();
  const core: Core = {
    store,
    models,
    outbound,
    publicUrl,
    useServerUrl(url) {
      if (config.events.publicUrlIsLocal) linkBase = url;
    },
    mailer,
    signals,
    services: createServices(store, {
      tempDir: tempDirOf(config),
      maxAttempts: config.jobs.maxAttempts,
      outbound,
      signals,
      onBackgroundError: (error) => console.error('parley events:', error),
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
      publicUrl,
      signUpOpen: config.signUpOpen,
      invitationMailer: mailer === null ? undefined : (invitation) => mailer.send([invitation.to], renderInvitationEmail(invitation)),
      resetMailer: mailer === null ? undefined : (reset) => mailer.send([reset.to], renderPasswordResetEmail(reset)),
      connectors: {
        messenger_b: new TelegramConnector({ fetch }),
        team_chat: new SlackConnector({ fetch }),
        helpdesk: new CrispConnector({ fetch }),
        messenger_a: new WhatsAppConnector({ fetch, maxAttachmentBytes: config.channels.maxAttachmentBytes }),
        mail: new MailConnector({
          maxAttachmentBytes: config.channels.maxAttachmentBytes,
          fallbackTransport: smtpUrl === null ? null : { url: smtpUrl },
          policy: outbound,
          timeoutMs: smtpTimeoutMs,
        }),
      },
      mailInboundPort: config.channels.mailInbound?.port ?? null,
    }),
    // Loaded on demand: CLI commands such as `keys` should start in a blink.
    embedder: () => (embedder ??= import('./llm/embeddings/create-embedder.js').then((m) => m.createEmbedder({ ...config.embeddings, fetch }))),
    async preload({ search }) {
      if (!config.embeddings.preload) return;
      // The tokenizer's table and the text tools' expressions are readied while the model's threads start.
      const model = core.embedder().then((loaded) => loaded.warmUp());
      loadTextTools();
      await Promise.all([model, search ? store.search.warmUp?.(WARM_DATASTORES) : undefined]);
    },
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
export const standardOutputLog = (): LogStream => (standardOutput ??= pino.destination({ dest: 1, sync: false }));

export async function startServer(config: Config, core: Core, { logStream }: { logStream?: LogStream } = {}): Promise<RunningServer> {
  const tls = config.server.tls ?? undefined;
  const app = await buildServer({
    services: core.services,
    store: core.store,
    publicUrl: core.publicUrl,
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
  core.useServerUrl(url);
  if (config.events.publicUrlIsLocal) await recordServerUrl(config.dataDir, url);
  return { app, url };
}
