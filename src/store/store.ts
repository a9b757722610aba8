/**
 * The store: what the domain needs from persistence, one port per resource (`ports/`), gathered here.
 * Every read and write of workspace data takes the workspace id, as an argument or inside the record it
 * writes, so no query can reach another workspace's rows by id alone; a port method without one says in
 * its TSDoc why it works across workspaces.
 */
import type { AgentStore } from './ports/agent-store.js';
import type { AnalyticsStore } from './ports/analytics-store.js';
import type { ApiKeyStore } from './ports/api-key-store.js';
import type { BlobStore } from './ports/blob-store.js';
import type { ChannelConnectionStore } from './ports/channel-connection-store.js';
import type { ChunkSearch } from './ports/chunk-search.js';
import type { ConversationStore } from './ports/conversation-store.js';
import type { DatasourceStore } from './ports/datasource-store.js';
import type { DatastoreStore } from './ports/datastore-store.js';
import type { DeliveryStore } from './ports/delivery-store.js';
import type { InstanceSecretStore } from './ports/instance-secret-store.js';
import type { JobStore } from './ports/job-store.js';
import type { LabelStore } from './ports/label-store.js';
import type { MemberStore } from './ports/member-store.js';
import type { MessageStore } from './ports/message-store.js';
import type { ModelProviderStore } from './ports/model-provider-store.js';
import type { OutboxStore } from './ports/outbox-store.js';
import type { ParticipantStore } from './ports/participant-store.js';
import type { SavedReplyStore } from './ports/saved-reply-store.js';
import type { OneTimeLinkStore, SessionStore, UserStore } from './ports/people.js';
import type { StoreCapabilities } from './ports/store-capabilities.js';
import type { WebhookStore } from './ports/webhook-store.js';
import type { WorkspaceStore } from './ports/workspace-store.js';

export type * from './ports/agent-store.js';
export type * from './ports/analytics-store.js';
export type * from './ports/api-key-store.js';
export type * from './ports/blob-store.js';
export type * from './ports/channel-connection-store.js';
export type * from './ports/chunk-search.js';
export type * from './ports/conversation-store.js';
export type * from './ports/datasource-store.js';
export type * from './ports/datastore-store.js';
export type * from './ports/delivery-store.js';
export type * from './ports/instance-secret-store.js';
export type * from './ports/job-store.js';
export type * from './ports/label-store.js';
export type * from './ports/member-store.js';
export type * from './ports/message-store.js';
export type * from './ports/model-provider-store.js';
export type * from './ports/outbox-store.js';
export type * from './ports/owned-records.js';
export type * from './ports/participant-store.js';
export type * from './ports/people.js';
export type * from './ports/saved-reply-store.js';
export type * from './ports/store-capabilities.js';
export type * from './ports/webhook-store.js';
export type * from './ports/workspace-store.js';

/** One store: every port over one database, opened by an adapter (`sqlite/`, `postgres/`). */
export interface Store {
  readonly capabilities: StoreCapabilities;
  readonly workspaces: WorkspaceStore;
  readonly apiKeys: ApiKeyStore;
  readonly agents: AgentStore;
  readonly datastores: DatastoreStore;
  readonly datasources: DatasourceStore;
  readonly jobs: JobStore;
  readonly blobs: BlobStore;
  readonly search: ChunkSearch;
  readonly conversations: ConversationStore;
  readonly messages: MessageStore;
  readonly analytics: AnalyticsStore;
  readonly participants: ParticipantStore;
  readonly outbox: OutboxStore;
  readonly members: MemberStore;
  readonly webhooks: WebhookStore;
  readonly savedReplies: SavedReplyStore;
  readonly labels: LabelStore;
  readonly deliveries: DeliveryStore;
  readonly modelProviders: ModelProviderStore;
  readonly channelConnections: ChannelConnectionStore;
  readonly secrets: InstanceSecretStore;
  readonly users: UserStore;
  readonly sessions: SessionStore;
  readonly links: OneTimeLinkStore;
  /** Applies pending migrations; returns the names applied. */
  migrate(): Promise<string[]>;
  /** Throws when the store cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
