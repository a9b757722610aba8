/** Webhook endpoints: the URLs a workspace has events sent to. */
import type { WebhookSource } from '../../contract/webhooks.js';
import type { ScopedReads } from './owned-records.js';

export interface WebhookEndpointRecord {
  id: string;
  workspaceId: string;
  url: string;
  /** Event types it receives. */
  events: string[];
  description: string;
  /** Signs every delivery; shown to the API client once, when the endpoint is created. */
  secret: string;
  /** A disabled endpoint keeps its log but receives no new events. */
  enabled: boolean;
  /** Who made it: a member, or an automation platform's REST hook subscription. */
  source: WebhookSource;
  createdAt: string;
  updatedAt: string;
}

export type WebhookChanges = Partial<Pick<WebhookEndpointRecord, 'url' | 'events' | 'description' | 'enabled'>>;

/** A workspace's webhook endpoints; what was sent to them is in the delivery store. */
export interface WebhookStore extends ScopedReads<WebhookEndpointRecord> {
  create(endpoint: WebhookEndpointRecord): Promise<void>;
  update(workspaceId: string, id: string, changes: WebhookChanges, at: string): Promise<WebhookEndpointRecord | undefined>;
  delete(workspaceId: string, id: string): Promise<WebhookEndpointRecord | undefined>;
  /** The enabled endpoints of the workspace that receive `eventType`. */
  subscribedTo(workspaceId: string, eventType: string): Promise<WebhookEndpointRecord[]>;
}
