import { setTimeout as delay } from 'node:timers/promises';
import type { NewDelivery, OutboxEventRecord, Store } from '../store/store.js';
import { planChannelMessage } from './channel-message-plan.js';
import { deliveryIdFor, deliveryJob } from './delivery-plan.js';
import { onBehalfOf } from '../observability/request-context.js';
import { pollDelayMs } from '../store/database-outage.js';
import { isNotifyingEnvelope } from '../contract/events.js';
import { envelopeOf, isPrivateNote } from './event-types.js';
import type { Recipient } from './notification-email.js';
import { notificationSettings } from './notification-settings.js';

export interface EventDispatcherOptions {
  /** False when no SMTP server is configured: e-mail notifications are then not planned at all. */
  mailEnabled: boolean;
  maxAttempts: number;
  pollMs: number;
  /** Events handed on per pass. */
  batchSize: number;
  /** How long a dispatched event stays in the outbox; its deliveries keep what was sent. */
  retentionMs: number;
  /** Called when deliveries were queued, to wake the workers that send them. */
  onQueued: () => void;
  onError: (error: unknown) => void;
}

const ADMIN_ROLES = new Set(['owner', 'admin']);

/** Old events are cleared this often, not on every pass. */
const PRUNE_INTERVAL_MS = 3_600_000;

/**
 * Hands outbox events on to their destinations: one delivery (and its sending job) per subscribed webhook
 * endpoint, and per audience of a notification e-mail; a new message of a channel's conversation goes out
 * through the channel (see {@link planChannelMessage}). Delivery ids derive from event and destination,
 * so a pass that crashes half-way, or two workers draining the same event, still create each delivery
 * once; the event is marked dispatched only after all its deliveries exist.
 */
export class EventDispatcher {
  readonly #stopping = new AbortController();
  #idle = new AbortController();
  #loop: Promise<void> | undefined;
  #prunedAt = 0;

  constructor(
    private readonly store: Store,
    private readonly options: EventDispatcherOptions,
  ) {}

  start(): void {
    this.#loop = this.run();
  }

  wake(): void {
    this.#idle.abort();
  }

  async stop(): Promise<void> {
    this.#stopping.abort();
    this.wake();
    await this.#loop;
  }

  /** One pass over the pending events; the number handed on. */
  async drain(): Promise<number> {
    const events = await this.store.outbox.list({ pending: true, limit: this.options.batchSize });
    let queued = 0;
    for (const event of events) {
      if (this.#stopping.signal.aborted) break;
      // The deliveries' jobs carry the request that caused the event, for the logs.
      await onBehalfOf(event.requestId, async () => {
        for (const { delivery, recipient } of await this.plan(event)) {
          if (await this.store.deliveries.createWithJob(delivery, deliveryJob(delivery, this.options.maxAttempts, recipient))) queued += 1;
        }
        const channelMessage = await planChannelMessage(this.store, envelopeOf(event), this.options.maxAttempts);
        if (channelMessage !== undefined) {
          await this.store.jobs.enqueue(channelMessage);
          queued += 1;
        }
      });
      await this.store.outbox.markDispatched(event.id, new Date().toISOString());
    }
    if (queued > 0) this.options.onQueued();
    return events.length;
  }

  /** Deletes events dispatched longer ago than the retention, at most once an interval. */
  async prune(now = Date.now()): Promise<void> {
    if (now - this.#prunedAt < PRUNE_INTERVAL_MS) return;
    this.#prunedAt = now;
    await this.store.outbox.deleteDispatchedBefore(new Date(now - this.options.retentionMs).toISOString());
  }

  private async run(): Promise<void> {
    /** Passes that failed in a row (the store is away): each makes the next wait longer. */
    let failures = 0;
    while (!this.#stopping.signal.aborted) {
      // Re-armed before the pass, not after: an event recorded while a pass reads the outbox ends the wait at once.
      if (this.#idle.signal.aborted) this.#idle = new AbortController();
      let handed = 0;
      try {
        handed = await this.drain();
        failures = 0;
      } catch (error) {
        failures += 1;
        this.options.onError(error);
      }
      await this.prune().catch(this.options.onError);
      if (handed === this.options.batchSize) continue;
      // A wake-up or a stop ends the wait early: the abort is the signal, not a failure.
      const wait = pollDelayMs(this.options.pollMs, failures);
      await delay(wait, undefined, { signal: AbortSignal.any([this.#idle.signal, this.#stopping.signal]) }).catch(() => undefined);
    }
  }

  private async plan(event: OutboxEventRecord): Promise<{ delivery: NewDelivery; recipient?: Recipient }[]> {
    const envelope = envelopeOf(event);
    const body = JSON.stringify(envelope);
    const base = {
      workspaceId: event.workspaceId,
      eventId: event.id,
      eventType: event.type,
      replayOf: null,
      body,
      createdAt: new Date().toISOString(),
    };
    // Receivers that relay messages to visitors do not know the private flag.
    if (isPrivateNote(envelope)) return [];
    const endpoints = await this.store.webhooks.subscribedTo(event.workspaceId, event.type);
    const planned: { delivery: NewDelivery; recipient?: Recipient }[] = endpoints.map((endpoint) => ({
      delivery: { ...base, id: deliveryIdFor(event.id, endpoint.id), channel: 'webhook', endpointId: endpoint.id, recipients: null },
    }));
    if (!this.options.mailEnabled || !isNotifyingEnvelope(envelope)) return planned;

    const audience = notificationSettings(await this.store.workspaces.settings(event.workspaceId)).notifications[envelope.type];
    const recipients: Record<Recipient, string[]> = {
      admins: audience.admins
        ? (await this.store.members.list(event.workspaceId))
            .filter((m) => ADMIN_ROLES.has(m.role))
            .map((m) => m.email)
            .sort()
        : [],
      customer: audience.customer ? [envelope.data.contact?.email ?? ''].filter(Boolean) : [],
    };
    for (const recipient of ['admins', 'customer'] as const) {
      if (recipients[recipient].length === 0) continue;
      planned.push({
        delivery: {
          ...base,
          id: deliveryIdFor(event.id, `email:${recipient}`),
          channel: 'email',
          endpointId: null,
          recipients: recipients[recipient],
        },
        recipient,
      });
    }
    return planned;
  }
}
