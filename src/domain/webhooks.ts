import { deliveryJob, replayDeliveryId } from '../events/delivery-plan.js';
import { envelopeOf, isPrivateNote } from '../events/event-types.js';
import { EVENT_TYPES, type EventEnvelope, type EventType } from '../contract/events.js';
import type { WebhookSource } from '../contract/webhooks.js';
import { BlockedUrlError, type OutboundPolicy } from '../net/address-policy.js';
import { assertAllowedDestination } from '../net/guarded-request.js';
import type { DeliveryRecord, Store, WebhookChanges, WebhookEndpointRecord } from '../store/store.js';
import { invalid, notFound } from '../errors.js';
import { newId, now, randomToken } from './ids.js';
import { findInWorkspace } from './scoped.js';
import type { Signals } from './signals.js';

export interface WebhookInput {
  url: string;
  events: string[];
  description?: string;
  enabled?: boolean;
}

/** A REST hook subscription: where an automation platform wants one event type delivered. */
export interface HookInput {
  targetUrl: string | undefined;
  event: EventType;
}

export interface WebhookServiceOptions {
  /** Where endpoints may point (PARLEY_OUTBOUND_ALLOW). */
  outbound: OutboundPolicy;
  maxAttempts: number;
  /** Told of each queued job, to wake in-process workers. */
  signals: Pick<Signals, 'jobEnqueued'>;
}

/** Deliveries shown per page of an endpoint's log. */
/** An endpoint as listed: with how many of its latest tried deliveries failed since its last success (0: none). */
export type ListedWebhook = WebhookEndpointRecord & { consecutiveFailures: number };

export const DELIVERY_LOG_LIMIT = 100;

/** Samples a subscription's setup is shown; read from a few more events, as private notes are left out. */
export const HOOK_SAMPLES = 3;
const SAMPLE_READS = 20;

/** Webhook endpoints of a workspace, their delivery logs and replays. */
export class WebhookService {
  constructor(
    private readonly store: Store,
    private readonly options: WebhookServiceOptions,
  ) {}

  /** The new endpoint, with its signing secret: the only time the secret leaves Parley. */
  create(workspaceId: string, input: WebhookInput): Promise<WebhookEndpointRecord> {
    return this.insert(workspaceId, input, 'webhooks');
  }

  /**
   * An automation platform's REST hook subscription (Zapier's subscribe): an endpoint of its own, marked as
   * such, delivered and signed like any other; it goes when the platform unsubscribes or the target answers 410.
   */
  subscribe(workspaceId: string, { targetUrl, event }: HookInput): Promise<WebhookEndpointRecord> {
    if (targetUrl === undefined) {
      throw invalid('A subscription needs the URL to deliver to (target_url)', [{ field: 'targetUrl', message: 'is required' }]);
    }
    return this.insert(workspaceId, { url: targetUrl, events: [event] }, 'automation');
  }

  /** Ends a subscription (Zapier's unsubscribe); an endpoint a member made is not one (404). */
  async unsubscribe(workspaceId: string, id: string): Promise<WebhookEndpointRecord> {
    if ((await this.get(workspaceId, id)).source !== 'automation') throw notFound('Hook', id);
    return this.delete(workspaceId, id);
  }

  /** The workspace's endpoints, each with how many of its latest deliveries failed since its last success. */
  async list(workspaceId: string): Promise<ListedWebhook[]> {
    const [endpoints, failures] = await Promise.all([this.store.webhooks.list(workspaceId), this.store.deliveries.consecutiveFailures(workspaceId)]);
    return endpoints.map((endpoint) => ({ ...endpoint, consecutiveFailures: failures.get(endpoint.id) ?? 0 }));
  }

  get(workspaceId: string, id: string): Promise<WebhookEndpointRecord> {
    return findInWorkspace(this.store.webhooks, 'Webhook', workspaceId, id);
  }

  async update(workspaceId: string, id: string, changes: WebhookChanges): Promise<WebhookEndpointRecord> {
    await this.get(workspaceId, id);
    if (changes.url !== undefined) await this.checkUrl(changes.url);
    const events = changes.events === undefined ? undefined : this.checkEvents(changes.events);
    const updated = await this.store.webhooks.update(workspaceId, id, { ...changes, events }, now());
    if (updated === undefined) throw notFound('Webhook', id);
    return updated;
  }

  /** Deletes the endpoint with its log; deliveries still waiting for a retry are dropped. */
  async delete(workspaceId: string, id: string): Promise<WebhookEndpointRecord> {
    await this.get(workspaceId, id);
    const deleted = await this.store.webhooks.delete(workspaceId, id);
    if (deleted === undefined) throw notFound('Webhook', id);
    return deleted;
  }

  /**
   * The workspace's latest events of `type` as a delivery carries them, newest first: what an automation
   * shows while a Zap is set up (Zapier's `performList`), in the very shape its trigger will receive.
   */
  async samples(workspaceId: string, type: EventType): Promise<EventEnvelope[]> {
    const events = (await this.store.outbox.latest(workspaceId, type, SAMPLE_READS)).map(envelopeOf);
    return events.filter((event) => !isPrivateNote(event)).slice(0, HOOK_SAMPLES);
  }

  /** The endpoint's latest deliveries, newest first, each with its attempts. */
  async deliveries(workspaceId: string, id: string): Promise<DeliveryRecord[]> {
    await this.get(workspaceId, id);
    return this.store.deliveries.list(workspaceId, { endpointId: id, limit: DELIVERY_LOG_LIMIT });
  }

  /** Sends a delivery's event again, as a new delivery with its own id and log. */
  async replay(workspaceId: string, id: string, deliveryId: string): Promise<DeliveryRecord> {
    await this.get(workspaceId, id);
    const original = await this.store.deliveries.find(workspaceId, deliveryId);
    if (original === undefined || original.endpointId !== id) {
      throw notFound('Delivery', deliveryId);
    }
    const delivery = {
      id: replayDeliveryId(),
      workspaceId,
      eventId: original.eventId,
      eventType: original.eventType,
      channel: original.channel,
      endpointId: id,
      recipients: null,
      replayOf: original.id,
      body: original.body,
      createdAt: now(),
    };
    await this.store.deliveries.createWithJob(delivery, deliveryJob(delivery, this.options.maxAttempts));
    this.options.signals.jobEnqueued.notify();
    const created = await this.store.deliveries.find(workspaceId, delivery.id);
    if (created === undefined) throw notFound('Delivery', delivery.id);
    return created;
  }

  private async insert(workspaceId: string, input: WebhookInput, source: WebhookSource): Promise<WebhookEndpointRecord> {
    await this.checkUrl(input.url);
    const at = now();
    const endpoint: WebhookEndpointRecord = {
      id: newId(),
      workspaceId,
      url: input.url,
      events: this.checkEvents(input.events),
      description: input.description ?? '',
      secret: `whsec_${randomToken(32)}`,
      enabled: input.enabled ?? true,
      source,
      createdAt: at,
      updatedAt: at,
    };
    await this.store.webhooks.create(endpoint);
    return endpoint;
  }

  private checkEvents(events: string[]): string[] {
    const unknown = events.filter((type) => !(EVENT_TYPES as readonly string[]).includes(type));
    if (unknown.length > 0) {
      throw invalid(`Unknown event type ${unknown.join(', ')}; known: ${EVENT_TYPES.join(', ')}`, [
        { field: 'events', message: `must contain only ${EVENT_TYPES.join(', ')}` },
      ]);
    }
    return [...new Set(events)];
  }

  private async checkUrl(url: string): Promise<void> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw invalid(`${url} is not a URL`, [{ field: 'url', message: 'must be an absolute http(s) URL' }]);
    }
    try {
      await assertAllowedDestination(parsed, this.options.outbound);
    } catch (error) {
      if (!(error instanceof BlockedUrlError)) throw error;
      throw invalid(`Webhook URL refused: ${error.message}`, [{ field: 'url', message: error.message }]);
    }
  }
}
