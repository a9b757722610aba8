import type { Config } from './config.js';
import { DELIVER_WEBHOOK_JOB, SEND_EMAIL_JOB } from './events/delivery-plan.js';
import { EventDispatcher } from './events/event-dispatcher.js';
import { Mailer } from './events/mailer.js';
import { DeliverWebhookHandler } from './jobs/handlers/deliver-webhook.js';
import { SendNotificationEmailHandler } from './jobs/handlers/send-notification-email.js';
import { JobRunner, type JobRunnerOptions } from './jobs/job-runner.js';
import type { OutboundPolicy } from './net/address-policy.js';
import type { Store } from './store/store.js';

/** A week of dispatched events stays for inspection; deliveries keep their own copy of what was sent. */
const OUTBOX_RETENTION_MS = 7 * 24 * 3_600_000;

export interface EventWorkers {
  /** Something was queued: look for it now rather than at the next poll. */
  wake(): void;
  /** An event was recorded: hand it on now. */
  wakeDispatcher(): void;
  stop(): Promise<void>;
}

/** The outbox dispatcher and the runner that sends what it queues, started together. */
export function startEventWorkers(
  config: Config,
  store: Store,
  {
    backoff,
    onError,
    onAttemptEnded,
    outbound,
  }: Pick<JobRunnerOptions, 'backoff' | 'onAttemptEnded'> & { onError: (error: unknown) => void; outbound: OutboundPolicy },
): EventWorkers {
  const { events } = config;
  const mailer =
    events.smtpUrl === null
      ? null
      : new Mailer({ smtpUrl: events.smtpUrl, from: events.mailFrom, timeoutMs: events.smtpTimeoutMs, policy: outbound });
  const runner = new JobRunner(
    store.jobs,
    {
      [DELIVER_WEBHOOK_JOB]: new DeliverWebhookHandler(store, {
        policy: outbound,
        timeoutMs: events.webhookTimeoutMs,
      }),
      [SEND_EMAIL_JOB]: new SendNotificationEmailHandler(store, mailer, events.publicUrl),
    },
    { concurrency: events.deliveryConcurrency, leaseMs: config.jobs.leaseMs, pollMs: 500, backoff, onError, onAttemptEnded },
  );
  const dispatcher = new EventDispatcher(store, {
    mailEnabled: mailer !== null,
    maxAttempts: events.deliveryMaxAttempts,
    pollMs: 500,
    batchSize: 100,
    retentionMs: OUTBOX_RETENTION_MS,
    onQueued: () => runner.wake(),
    onError,
  });
  runner.start();
  dispatcher.start();
  return {
    wake() {
      dispatcher.wake();
      runner.wake();
    },
    wakeDispatcher: () => dispatcher.wake(),
    async stop() {
      await dispatcher.stop();
      await runner.stop();
      mailer?.close();
    },
  };
}
