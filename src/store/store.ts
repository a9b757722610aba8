/**
 * The store ports: what the domain needs from persistence. Every read and write of workspace data takes
 * the workspace id, so no query can reach another workspace's rows by id alone.
 */

import type { OneTimeLinkStore, SessionStore, UserStore } from './ports/people.js';

export type * from './ports/people.js';

export interface WorkspaceRecord {
  id: string;
  name: string;
  createdAt: string;
}

export interface ApiKeyRecord {
  id: string;
  workspaceId: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export type Visibility = 'public' | 'private';

/** The only kind of datastore so far: chunks with vectors and a keyword index. */
export type DatastoreType = 'vector_a';

export interface AgentRecord {
  id: string;
  workspaceId: string;
  name: string;
  description: string;
  modelName: string;
  temperature: number;
  visibility: Visibility;
  systemPrompt: string | null;
  userPrompt: string;
  iconUrl: string | null;
  handle: string | null;
  /** Web origins (`https://example.com`) whose pages may call the agent's public endpoints; empty: any. */
  allowedOrigins: string[];
  /** Linked datastores, in the order the agent lists them. */
  datastoreIds: string[];
  createdAt: string;
  updatedAt: string;
}

export interface DatastoreRecord {
  id: string;
  workspaceId: string;
  name: string;
  description: string;
  type: DatastoreType;
  visibility: Visibility;
  /** The embedding model its vectors were made with; null until the first datasource is indexed. */
  embeddingModel: string | null;
  embeddingDimensions: number | null;
  /** Weights of vector and keyword results in hybrid search. */
  vectorWeight: number;
  keywordWeight: number;
  createdAt: string;
  updatedAt: string;
}

export type DatasourceType = 'file' | 'text' | 'web_page';

export type DatasourceStatus = 'unsynched' | 'pending' | 'running' | 'synched' | 'error' | 'usage_limit_reached';

export interface DatasourceRecord {
  id: string;
  workspaceId: string;
  datastoreId: string;
  type: DatasourceType;
  name: string;
  status: DatasourceStatus;
  customId: string | null;
  groupId: string | null;
  /** Where the content comes from (`source_url`, `file_name`) and what it turned out to be (`kind`). */
  config: Record<string, unknown>;
  fileKey: string | null;
  mimeType: string | null;
  sizeBytes: number | null;
  error: string | null;
  progress: number;
  nbChunks: number;
  textSize: number;
  totalPages: number | null;
  generation: number;
  lastSynch: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A chunk ready to be written: text, vector and where it came from. */
export interface NewChunk {
  ordinal: number;
  text: string;
  source: string;
  pageNumber: number | null;
  tokens: number;
  embedding: Float32Array;
}

/** A stored chunk as people inspect it (no vector). */
export interface ChunkRecord {
  id: string;
  datasourceId: string;
  ordinal: number;
  text: string;
  source: string;
  pageNumber: number | null;
  tokens: number;
  customId: string | null;
}

/** What a worker reports about a datasource while it runs; ignored once the generation is stale. */
export interface DatasourceProgress {
  status?: DatasourceStatus;
  progress?: number;
  error?: string | null;
  config?: Record<string, unknown>;
  fileKey?: string | null;
  mimeType?: string | null;
  sizeBytes?: number | null;
}

/** The outcome of indexing one generation of a datasource. */
export interface IndexedContent {
  chunks: readonly NewChunk[];
  textSize: number;
  totalPages: number | null;
  embeddingModel: string;
  embeddingDimensions: number;
  /** Written to the outbox with the index (`datasource.synched`). */
  event?: NewOutboxEvent;
}

export type IndexOutcome = 'written' | 'superseded' | 'model-mismatch';

export interface DatasourceStore extends ScopedReads<DatasourceRecord> {
  /** Creates the datasource together with the job that will process it, atomically. */
  create(datasource: DatasourceRecord, job: NewJob): Promise<void>;
  listByDatastore(workspaceId: string, datastoreId: string): Promise<DatasourceRecord[]>;
  /** A new generation: status pending, progress 0, and a job for it, atomically. */
  requeue(workspaceId: string, id: string, job: (generation: number) => NewJob): Promise<DatasourceRecord | undefined>;
  /** Moves an unsynched datasource to pending once its job is safely queued. */
  markQueued(id: string): Promise<void>;
  /**
   * The datasource's current generation, undefined once it is deleted: one indexed read, cheap enough for a
   * running job to poll so that a delete or resync made in another process stops it.
   */
  generation(id: string): Promise<number | undefined>;
  /**
   * Records progress of `generation`; false when the datasource was deleted or re-synced meanwhile.
   * `event` is written to the outbox with the change, only if it applied.
   */
  report(id: string, generation: number, progress: DatasourceProgress, event?: NewOutboxEvent): Promise<boolean>;
  /**
   * Replaces the datasource's chunks, vectors and keyword entries with `content` and marks it synched,
   * in one transaction: a crash leaves the old set or the new one, never both or half.
   */
  writeIndex(id: string, generation: number, content: IndexedContent): Promise<IndexOutcome>;
  delete(workspaceId: string, id: string): Promise<DatasourceRecord | undefined>;
  /** The datasource's chunks in document order, `limit` from `offset`. */
  listChunks(workspaceId: string, id: string, page: { offset: number; limit: number }): Promise<ChunkRecord[]>;
  /** Characters of indexed text the workspace stores, for the content quota. */
  storedTextSize(workspaceId: string): Promise<number>;
  /** Datasources of datastores whose vectors were made with another model than `modelId`. */
  listEmbeddedWithOtherModel(modelId: string): Promise<DatasourceRecord[]>;
}

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

export interface NewJob {
  id: string;
  kind: string;
  workspaceId: string | null;
  payload: Record<string, unknown>;
  maxAttempts: number;
  /** When it may first run; now when absent. */
  runAt?: string;
}

export interface JobRecord {
  id: string;
  kind: string;
  workspaceId: string | null;
  payload: Record<string, unknown>;
  status: JobStatus;
  /** Attempts started so far, this one included once claimed. */
  attempts: number;
  maxAttempts: number;
  runAt: string;
  leaseOwner: string | null;
  leaseUntil: string | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * The durable queue. A job is claimed with a lease; a job whose lease ran out (its process died) can be
 * claimed again. Every change after the claim names the lease owner, so a worker that lost its lease
 * cannot overwrite the new owner's outcome.
 */
export interface JobStore {
  enqueue(job: NewJob): Promise<void>;
  /** The next due job of `kinds`, now leased to `owner` until `leaseUntil`; undefined when none is due. */
  claim(owner: string, kinds: readonly string[], now: string, leaseUntil: string): Promise<JobRecord | undefined>;
  /** Extends the lease; false when `owner` no longer holds it. */
  extendLease(id: string, owner: string, leaseUntil: string): Promise<boolean>;
  complete(id: string, owner: string): Promise<void>;
  /** Back to the queue, due at `runAt`, remembering why this attempt failed. */
  retryLater(id: string, owner: string, error: string, runAt: string): Promise<void>;
  fail(id: string, owner: string, error: string): Promise<void>;
  /** Hands an interrupted job back to the queue at once, not counting the attempt (graceful shutdown). */
  release(id: string, owner: string): Promise<void>;
  find(id: string): Promise<JobRecord | undefined>;
  /** Jobs in the given statuses, oldest first (tests, the dashboard). */
  list(filter: { kind?: string; statuses?: readonly JobStatus[] }): Promise<JobRecord[]>;
}

/** Uploaded files: a folder under the data directory (embedded) or the database itself (PostgreSQL). */
export interface BlobStore {
  /** Moves or copies the file at `sourcePath` into the store under `key`. */
  put(key: string, sourcePath: string): Promise<void>;
  /** Runs `use` with a local path holding the blob's bytes (a temporary copy when the store is remote). */
  withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T>;
  delete(key: string): Promise<void>;
}

/** The fields of a record that a caller may change; ids, owner and times are the store's. */
export type Changes<T> = Partial<Omit<T, 'id' | 'workspaceId' | 'createdAt' | 'updatedAt' | 'embeddingModel' | 'embeddingDimensions'>>;

/** Common reads of a workspace-owned resource. */
export interface ScopedReads<T> {
  /** The record if it exists in this workspace. */
  find(workspaceId: string, id: string): Promise<T | undefined>;
  /** The workspace that owns `id`, whichever it is; tells "another workspace's" from "none". */
  ownerOf(id: string): Promise<string | undefined>;
  /** Newest first. */
  list(workspaceId: string): Promise<T[]>;
}

export interface WorkspaceStore {
  create(workspace: WorkspaceRecord): Promise<void>;
  /** The saved settings object (empty when none were saved); the domain fills in the defaults. */
  settings(workspaceId: string): Promise<Record<string, unknown>>;
  saveSettings(workspaceId: string, settings: Record<string, unknown>): Promise<void>;
  findByName(name: string): Promise<WorkspaceRecord | undefined>;
  find(id: string): Promise<WorkspaceRecord | undefined>;
  rename(id: string, name: string): Promise<void>;
  list(): Promise<WorkspaceRecord[]>;
}

/** Secrets every process on this store shares; not workspace data, so no workspace id. */
export interface InstanceSecretStore {
  /** The secret named `name`; `candidate` becomes it when none exists yet (the first writer wins). */
  getOrCreate(name: string, candidate: string, at: string): Promise<string>;
}

export type KeyDeletion = 'deleted' | 'missing' | 'last-key';

export interface ApiKeyStore extends ScopedReads<ApiKeyRecord> {
  create(key: ApiKeyRecord, hash: string): Promise<void>;
  /** The key whose SHA-256 is `hash`, of whichever workspace. */
  findByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  markUsed(id: string, at: string): Promise<void>;
  /** Deletes unless it is the workspace's last key; the check and the delete are one atomic step. */
  delete(workspaceId: string, id: string): Promise<KeyDeletion>;
}

export interface AgentStore extends ScopedReads<AgentRecord> {
  create(agent: AgentRecord): Promise<void>;
  update(workspaceId: string, id: string, changes: Changes<AgentRecord>, at: string): Promise<AgentRecord | undefined>;
  delete(workspaceId: string, id: string): Promise<AgentRecord | undefined>;
}

export interface DatastoreStore extends ScopedReads<DatastoreRecord> {
  create(datastore: DatastoreRecord): Promise<void>;
  update(
    workspaceId: string,
    id: string,
    changes: Changes<DatastoreRecord>,
    at: string,
  ): Promise<DatastoreRecord | undefined>;
  /** Forgets the embedding model, so the next indexed datasource sets it (after a model change). */
  resetEmbeddingModel(id: string): Promise<void>;
  /** Deletes the datastore and everything in it; agents linked to it lose the link. */
  delete(workspaceId: string, id: string): Promise<DatastoreRecord | undefined>;
}

/** Which chunks a search may return: synched datasources of these datastores, narrowed by the filters. */
export interface SearchScope {
  workspaceId: string;
  datastoreIds: readonly string[];
  /** Only chunks of these datasources (an OR list); absent = no restriction. */
  datasourceIds?: readonly string[];
  /** Only chunks whose datasource carries one of these custom ids (an OR list). */
  customIds?: readonly string[];
}

/** A chunk found by one engine, with that engine's score (higher is better). */
export interface ChunkHit {
  chunkId: string;
  score: number;
}

/** A found chunk with what a caller shows: its text and where it comes from. */
export interface ChunkDetails {
  chunkId: string;
  text: string;
  source: string;
  pageNumber: number | null;
  datasourceId: string;
  datasourceName: string;
  datasourceType: DatasourceType;
  customId: string | null;
  mimeType: string | null;
  totalPages: number | null;
  sourceUrl: string | null;
}

/** Vector and keyword search over chunks; each adapter uses its engine's own indexes. */
export interface ChunkSearch {
  /**
   * Nearest chunks by cosine similarity to `vector` (a unit vector), best first. The vector may still be
   * on its way (the query being embedded): an adapter looks up the scope meanwhile.
   */
  vectorSearch(scope: SearchScope, vector: Float32Array | Promise<Float32Array>, limit: number): Promise<ChunkHit[]>;
  /** Chunks matching the words of `query`, best first (BM25 in SQLite, ts_rank_cd in PostgreSQL). */
  keywordSearch(scope: SearchScope, query: string, limit: number): Promise<ChunkHit[]>;
  /** The chunks' texts and origins, in the order of `chunkIds`; ids outside the workspace are dropped. */
  details(workspaceId: string, chunkIds: readonly string[]): Promise<ChunkDetails[]>;
}

/** What differs between the adapters, as flags rather than dialect checks outside `store/`. */
export interface StoreCapabilities {
  readonly dialect: 'sqlite' | 'postgres';
}

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
  readonly participants: ParticipantStore;
  readonly outbox: OutboxStore;
  readonly members: MemberStore;
  readonly webhooks: WebhookStore;
  readonly deliveries: DeliveryStore;
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

export type ConversationStatus = 'UNRESOLVED' | 'RESOLVED' | 'HUMAN_REQUESTED';

export type MessageFrom = 'human' | 'agent' | 'system';

export type MessageEval = 'GOOD' | 'BAD';

export interface ConversationRecord {
  id: string;
  workspaceId: string;
  /** Null once the agent is deleted; the conversation stays. */
  agentId: string | null;
  channel: string;
  channelExternalId: string | null;
  status: ConversationStatus;
  /** False once a person took over: the agent no longer answers. */
  isAiEnabled: boolean;
  /** Empty until the first human message names it. */
  title: string;
  metadata: Record<string, unknown>;
  visitorId: string | null;
  contactId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A conversation to create when its id is not taken yet (clients make conversation ids up). */
export type NewConversation = Omit<ConversationRecord, 'updatedAt'>;

/** Token counts of the model call that produced a message. */
export interface MessageUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface MessageRecord {
  id: string;
  workspaceId: string;
  conversationId: string;
  from: MessageFrom;
  text: string;
  /** What the answer was drawn from; the element shape is the query endpoint's. */
  sources: Record<string, unknown>[];
  eval: MessageEval | null;
  read: boolean;
  attachments: Record<string, unknown>[];
  usage: MessageUsage | null;
  model: string | null;
  visitorId: string | null;
  createdAt: string;
}

export type NewMessage = Omit<MessageRecord, 'eval'>;

/** Narrows a conversation list; every field given must match. */
export interface ConversationFilter {
  agentId?: string;
  channel?: string;
  channelExternalId?: string;
  /** Case-insensitive substring of the title, the contact's name, e-mail or phone, or any message text. */
  search?: string;
  /** Inclusive bounds on `createdAt`, ISO 8601 UTC. */
  createdFrom?: string;
  createdTo?: string;
}

/** Where a page of the list ordered by (updatedAt desc, id desc) starts: right after this row. */
export interface ConversationKey {
  updatedAt: string;
  id: string;
}

export interface ConversationPage {
  limit: number;
  after?: ConversationKey;
}

/** What a PATCH may change; `metadata` is merged into the stored object (top-level keys replaced). */
export interface ConversationChanges {
  status?: ConversationStatus;
  isAiEnabled?: boolean;
  metadata?: Record<string, unknown>;
  contactId?: string;
}

/** Writes that belong to a change and commit or roll back with it. */
export interface ConversationEffects {
  /** Added when the change switches the agent off (isAiEnabled true → false). */
  onAiSwitchedOff?: NewMessage;
  /** Written to the outbox when the change gives the conversation another status than it had. */
  onStatusChanged?: NewOutboxEvent;
}

export interface ConversationUpdate {
  before: ConversationRecord;
  after: ConversationRecord;
}

/** The conversation a message was appended to, as it is afterwards. */
export interface AppendedMessage {
  message: MessageRecord;
  conversation: ConversationRecord;
}

export interface ConversationStore extends ScopedReads<ConversationRecord> {
  /** Most recently active first (updatedAt desc, id desc), narrowed by `filter`, one page when `page` is given. */
  list(workspaceId: string, filter?: ConversationFilter, page?: ConversationPage): Promise<ConversationRecord[]>;
  /**
   * The workspace's conversation with this id, created from `conversation` when the workspace has none
   * (ids are unique per workspace: another workspace's conversation of the same id is another one).
   * `created` says which; `onCreated` goes to the outbox only then.
   */
  ensure(conversation: NewConversation, onCreated?: NewOutboxEvent): Promise<{ conversation: ConversationRecord; created: boolean }>;
  /**
   * Adds the message and bumps the conversation's `updatedAt`, atomically; a human message reopens a
   * RESOLVED conversation (UNRESOLVED), and names an untitled one `title`. Undefined when the
   * conversation is not in the workspace. `event` is written to the outbox in the same transaction.
   */
  appendMessage(message: NewMessage, title?: string, event?: NewOutboxEvent): Promise<AppendedMessage | undefined>;
  /** Applies `changes` and their `effects` in one transaction; undefined when not in the workspace. */
  update(
    workspaceId: string,
    id: string,
    changes: ConversationChanges,
    effects: ConversationEffects,
    at: string,
  ): Promise<ConversationUpdate | undefined>;
  /** Sets the status of every workspace conversation matching the filter; returns how many matched. */
  bulkUpdateStatus(
    workspaceId: string,
    filter: { channel?: string; agentId?: string },
    status: ConversationStatus,
    at: string,
  ): Promise<number>;
}

export interface MessageStore {
  /** The message if it exists in this workspace. */
  find(workspaceId: string, id: string): Promise<MessageRecord | undefined>;
  /** The workspace that owns `id`, whichever it is. */
  ownerOf(id: string): Promise<string | undefined>;
  /**
   * The messages of these conversations, oldest first (createdAt, id); with `latest`, only each
   * conversation's last `latest` ones.
   */
  listByConversations(
    workspaceId: string,
    conversationIds: readonly string[],
    options?: { latest?: number },
  ): Promise<MessageRecord[]>;
  /** Sets or clears the rating; undefined when the message is not in the workspace. */
  rate(workspaceId: string, id: string, value: MessageEval | null): Promise<MessageRecord | undefined>;
  /** Agent answers the workspace received since `since` (ISO time), for the query quota. */
  countAgentAnswersSince(workspaceId: string, since: string): Promise<number>;
}

export interface ContactRecord {
  id: string;
  workspaceId: string;
  firstName: string | null;
  lastName: string | null;
  /** Lower case; unique in the workspace. */
  email: string | null;
  phoneNumber: string | null;
  createdAt: string;
  updatedAt: string;
}

export type ContactFields = Partial<Pick<ContactRecord, 'firstName' | 'lastName' | 'email' | 'phoneNumber'>>;

/** Whoever writes from a widget or channel; known by an id the client keeps, a contact once they say who they are. */
export interface VisitorRecord {
  id: string;
  workspaceId: string;
  contactId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ParticipantStore {
  /**
   * The workspace's visitor with this id, created when the workspace has none (ids are unique per
   * workspace), linked to `contactId` when given.
   */
  ensureVisitor(workspaceId: string, id: string, contactId: string | null, at: string): Promise<VisitorRecord>;
  visitors(workspaceId: string, ids: readonly string[]): Promise<VisitorRecord[]>;
  /**
   * The contact with this e-mail in the workspace updated with the fields given, else a new contact
   * `id`; in one statement, so two requests cannot create the same e-mail twice.
   */
  upsertContact(workspaceId: string, id: string, fields: ContactFields, at: string): Promise<ContactRecord>;
  contacts(workspaceId: string, ids: readonly string[]): Promise<ContactRecord[]>;
}

export interface NewOutboxEvent {
  id: string;
  workspaceId: string;
  type: string;
  payload: Record<string, unknown>;
}

export interface OutboxEventRecord extends NewOutboxEvent {
  createdAt: string;
  /** When a dispatcher handed it on; null while pending. */
  dispatchedAt: string | null;
}

/**
 * Domain events written in the transaction of the change they report, so an event exists exactly when
 * its change committed; a dispatcher delivers them afterwards.
 */
export interface OutboxStore {
  /** Oldest first. */
  list(filter: { workspaceId?: string; pending?: boolean; limit?: number }): Promise<OutboxEventRecord[]>;
  /** False when it was already dispatched (or does not exist). */
  markDispatched(id: string, at: string): Promise<boolean>;
  /** Deletes events dispatched before `cutoff` (their deliveries keep what was sent); the number deleted. */
  deleteDispatchedBefore(cutoff: string): Promise<number>;
}

export type MemberRole = 'owner' | 'admin' | 'member';

/** A person's place in a workspace; owners and admins are the administrators that notifications reach. */
export interface MemberRecord {
  id: string;
  workspaceId: string;
  userId: string;
  /** The user's e-mail and name. */
  email: string;
  name: string;
  role: MemberRole;
  /** `invited` until the person accepts the invitation (sets a password or signs in). */
  status: 'active' | 'invited';
  createdAt: string;
}

export interface NewMember extends Omit<MemberRecord, 'status'> {
  /** Null for an open invitation. */
  acceptedAt: string | null;
}

/** A membership with the name of its workspace, for a person's list of workspaces. */
export interface WorkspaceMembership {
  member: MemberRecord;
  workspaceName: string;
}

export interface MemberStore extends ScopedReads<MemberRecord> {
  /** False when the user is already a member of the workspace. */
  create(member: NewMember): Promise<boolean>;
  findByUser(workspaceId: string, userId: string): Promise<MemberRecord | undefined>;
  /** Workspace-free on purpose: the workspaces one person belongs to (oldest workspace first). */
  listByUser(userId: string): Promise<WorkspaceMembership[]>;
  /** Marks an invited member as having accepted. */
  accept(workspaceId: string, id: string, at: string): Promise<void>;
  /** `last-owner` when it would leave the workspace without an owner; undefined when not in the workspace. */
  changeRole(workspaceId: string, id: string, role: MemberRole): Promise<MemberRecord | 'last-owner' | undefined>;
  delete(workspaceId: string, id: string): Promise<MemberRecord | 'last-owner' | undefined>;
}

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
  createdAt: string;
  updatedAt: string;
}

export type WebhookChanges = Partial<Pick<WebhookEndpointRecord, 'url' | 'events' | 'description' | 'enabled'>>;

export interface WebhookStore extends ScopedReads<WebhookEndpointRecord> {
  create(endpoint: WebhookEndpointRecord): Promise<void>;
  update(workspaceId: string, id: string, changes: WebhookChanges, at: string): Promise<WebhookEndpointRecord | undefined>;
  delete(workspaceId: string, id: string): Promise<WebhookEndpointRecord | undefined>;
  /** The enabled endpoints of the workspace that receive `eventType`. */
  subscribedTo(workspaceId: string, eventType: string): Promise<WebhookEndpointRecord[]>;
}

export type DeliveryChannel = 'webhook' | 'email';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One event on its way to one destination: a webhook endpoint or a list of e-mail recipients. */
export interface NewDelivery {
  id: string;
  workspaceId: string;
  eventId: string;
  eventType: string;
  channel: DeliveryChannel;
  endpointId: string | null;
  recipients: string[] | null;
  /** The delivery this one sends again (replay). */
  replayOf: string | null;
  /** The event as sent, the same bytes on every attempt. */
  body: string;
  createdAt: string;
}

export interface DeliveryAttemptRecord {
  attempt: number;
  startedAt: string;
  durationMs: number;
  /** The receiver's HTTP status; null when no answer came (refused, timed out) or for e-mail. */
  statusCode: number | null;
  error: string | null;
  /** The start of what the receiver answered, to help whoever debugs it. */
  responseExcerpt: string | null;
}

export interface DeliveryRecord extends NewDelivery {
  status: DeliveryStatus;
  attemptCount: number;
  lastStatusCode: number | null;
  lastError: string | null;
  /** When the next retry is due, while one is scheduled. */
  nextAttemptAt: string | null;
  updatedAt: string;
  completedAt: string | null;
  /** Oldest first. */
  attempts: DeliveryAttemptRecord[];
}

/** Where a delivery stands after an attempt. */
export interface DeliveryOutcome {
  status: DeliveryStatus;
  nextAttemptAt: string | null;
  at: string;
}

export interface DeliveryStore {
  /**
   * Writes the delivery and the job that sends it, in one transaction; false (and nothing written) when
   * a delivery with this id exists, which makes handing an event on twice harmless.
   */
  createWithJob(delivery: NewDelivery, job: NewJob): Promise<boolean>;
  /** Any workspace's (the sending job knows only the id). */
  find(id: string): Promise<DeliveryRecord | undefined>;
  /** Newest first. */
  list(workspaceId: string, filter: { endpointId?: string; channel?: DeliveryChannel; limit: number }): Promise<DeliveryRecord[]>;
  recordAttempt(id: string, attempt: DeliveryAttemptRecord, outcome: DeliveryOutcome): Promise<void>;
  /** Updates status and next attempt time without an attempt (a retry was scheduled or given up). */
  settle(id: string, outcome: DeliveryOutcome, error?: string): Promise<void>;
}
