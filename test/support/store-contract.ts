import { afterAll, beforeAll } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { openStore } from '../../src/store/open-store.js';
import type {
  AgentRecord,
  AnswerSourceRecord,
  ConversationRecord,
  DatasourceRecord,
  DatastoreRecord,
  IndexedContent,
  MemberRecord,
  NewChunk,
  NewConversation,
  NewDelivery,
  NewJob,
  NewMember,
  MessageRecord,
  NewMessage,
  NewOutboxEvent,
  Store,
  LabelRecord,
  SavedReplyRecord,
  UserRecord,
  WebhookEndpointRecord,
  WorkspaceRecord,
} from '../../src/store/store.js';
import { createScratchStore, type ScratchStore, type StoreKind } from './stores.js';
import { firstModelWins } from '../../src/domain/ingestion/embedding-model-rule.js';

/**
 * What the store contract suites (test/store/*.contract.test.ts) share: a scratch store opened once per
 * file and store kind, fixed times, and records to write through the ports. Records are plain values
 * with fresh ids; the tests write them through the port under test, so nothing here reaches past it.
 */

/**
 * Opens a migrated scratch store for the enclosing `describe` and drops it afterwards. Returns a getter:
 * the store exists only once `beforeAll` ran.
 */
export function useScratchStore(kind: StoreKind): () => Store {
  let scratch: ScratchStore | undefined;
  let store: Store | undefined;
  beforeAll(async () => {
    scratch = await createScratchStore(kind);
    store = await openStore(scratch.config, scratch.dataDir);
  });
  afterAll(async () => {
    await store?.close();
    await scratch?.drop();
  });
  return () => {
    if (store === undefined) throw new Error('the scratch store is opened in beforeAll');
    return store;
  };
}

const T0 = Date.parse('2030-01-01T00:00:00.000Z');

/** A fixed time `seconds` after 2030-01-01T00:00:00Z, as the ISO string the ports take. */
export const at = (seconds: number): string => new Date(T0 + seconds * 1000).toISOString();

/** A workspace with a unique name, written through the port. */
export async function createWorkspace(store: Store, overrides: Partial<WorkspaceRecord> = {}): Promise<WorkspaceRecord> {
  const id = overrides.id ?? newId();
  const workspace = { id, name: `workspace ${id}`, createdAt: at(0), ...overrides };
  await store.workspaces.create(workspace);
  return workspace;
}

/** Two workspaces: A holds the rows, B is the one that must not reach them. */
export async function twoWorkspaces(store: Store): Promise<[WorkspaceRecord, WorkspaceRecord]> {
  return [await createWorkspace(store), await createWorkspace(store)];
}

export const agentRecord = (workspaceId: string, overrides: Partial<AgentRecord> = {}): AgentRecord => ({
  id: newId(),
  workspaceId,
  name: 'Helper',
  description: 'answers questions',
  modelName: 'local',
  temperature: 0.2,
  visibility: 'private',
  systemPrompt: null,
  userPrompt: '{query}',
  iconUrl: null,
  handle: null,
  allowedOrigins: [],
  widget: {},
  keepAnsweringUntilTakenOver: false,
  datastoreIds: [],
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides,
});

export const datastoreRecord = (workspaceId: string, overrides: Partial<DatastoreRecord> = {}): DatastoreRecord => ({
  id: newId(),
  workspaceId,
  name: 'Docs',
  description: '',
  type: 'vector_a',
  visibility: 'private',
  embeddingModel: null,
  embeddingDimensions: null,
  vectorWeight: 0.5,
  keywordWeight: 1,
  vectorWindows: true,
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides,
});

export const datasourceRecord = (workspaceId: string, datastoreId: string, overrides: Partial<DatasourceRecord> = {}): DatasourceRecord => ({
  id: newId(),
  workspaceId,
  datastoreId,
  type: 'text',
  name: 'notes.txt',
  status: 'unsynched',
  customId: null,
  groupId: null,
  config: {},
  fileKey: null,
  mimeType: null,
  sizeBytes: null,
  contentKey: null,
  error: null,
  progress: 0,
  nbChunks: 0,
  textSize: 0,
  totalPages: null,
  generation: 1,
  lastSynch: null,
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides,
});

export const jobRecord = (overrides: Partial<NewJob> = {}): NewJob => ({
  id: newId(),
  kind: 'contract-noop',
  workspaceId: null,
  payload: {},
  maxAttempts: 3,
  ...overrides,
});

/** A 4-dimension unit vector pointing along `values`. */
export function unit(...values: number[]): Float32Array {
  const norm = Math.hypot(...values);
  return Float32Array.from(values, (value) => value / norm);
}

export const chunk = (ordinal: number, text: string, embedding: Float32Array = unit(1, 0, 0, 0)): NewChunk => ({
  ordinal,
  text,
  source: `source ${ordinal}`,
  pageNumber: null,
  tokens: text.split(' ').length,
  vectors: [embedding],
});

/** What an ingest job hands `writeIndex`: the chunks, 4-dimension vectors of the model `contract-embed`. */
export const indexed = (chunks: NewChunk[], overrides: Partial<IndexedContent> = {}): IndexedContent => ({
  chunks,
  textSize: chunks.reduce((total, { text }) => total + text.length, 0),
  totalPages: null,
  embeddingModel: 'contract-embed',
  embeddingDimensions: 4,
  modelRule: firstModelWins,
  vectorLayout: 'whole',
  ...overrides,
});

/**
 * A datastore with one datasource indexed (synched) from `chunks`, written through the ports as an
 * ingest job does: create, then writeIndex of generation 1.
 */
export async function indexedDatasource(
  store: Store,
  workspaceId: string,
  chunks: NewChunk[],
  overrides: { datastoreId?: string; datasource?: Partial<DatasourceRecord>; content?: Partial<IndexedContent> } = {},
): Promise<DatasourceRecord> {
  const datastoreId = overrides.datastoreId ?? (await createDatastore(store, workspaceId)).id;
  const datasource = datasourceRecord(workspaceId, datastoreId, overrides.datasource);
  await store.datasources.create(datasource, jobRecord({ workspaceId }));
  const outcome = await store.datasources.writeIndex(
    datasource.workspaceId,
    datasource.id,
    datasource.generation,
    indexed(chunks, overrides.content),
  );
  if (outcome !== 'written') throw new Error(`indexing the fixture datasource: ${outcome}`);
  return (await store.datasources.find(workspaceId, datasource.id))!;
}

export async function createDatastore(store: Store, workspaceId: string, overrides: Partial<DatastoreRecord> = {}): Promise<DatastoreRecord> {
  const datastore = datastoreRecord(workspaceId, overrides);
  await store.datastores.create(datastore);
  return datastore;
}

export const conversationRecord = (workspaceId: string, overrides: Partial<NewConversation> = {}): NewConversation => ({
  id: newId(),
  workspaceId,
  agentId: null,
  channel: 'api',
  channelExternalId: null,
  status: 'UNRESOLVED',
  isAiEnabled: true,
  title: '',
  metadata: {},
  visitorId: null,
  contactId: null,
  visitorContext: null,
  createdAt: at(0),
  ...overrides,
});

export async function createConversation(store: Store, workspaceId: string, overrides: Partial<NewConversation> = {}): Promise<ConversationRecord> {
  const { conversation, created } = await store.conversations.ensure(conversationRecord(workspaceId, overrides));
  if (!created) throw new Error(`conversation ${conversation.id} existed already`);
  return conversation;
}

export const messageRecord = (workspaceId: string, conversationId: string, overrides: Partial<NewMessage> = {}): NewMessage => ({
  id: newId(),
  workspaceId,
  conversationId,
  from: 'human',
  text: 'hello',
  sources: [],
  read: false,
  attachments: [],
  usage: null,
  model: null,
  visitorId: null,
  memberId: null,
  createdAt: at(60),
  interrupted: false,
  notice: null,
  private: false,
  ...overrides,
});

/** A passage an agent answer cites, as the store keeps it with the answer. */
export const answerSourceRecord = (overrides: Partial<AnswerSourceRecord> = {}): AnswerSourceRecord => ({
  chunkId: newId(),
  datasourceId: newId(),
  datasourceName: 'Handbook.txt',
  datasourceType: 'file',
  sourceUrl: null,
  customId: null,
  mimeType: null,
  pageNumber: null,
  totalPages: null,
  score: 0.9,
  text: 'a passage',
  ...overrides,
});

export const outboxEvent = (workspaceId: string, overrides: Partial<NewOutboxEvent> = {}): NewOutboxEvent => ({
  id: newId(),
  workspaceId,
  type: 'contract.event',
  payload: { n: 1 },
  ...overrides,
});

/** A user of the instance (people belong to no one workspace), stored. */
export async function createUser(store: Store, overrides: Partial<Omit<UserRecord, 'authGeneration'>> = {}): Promise<UserRecord> {
  return store.users.ensure({
    id: newId(),
    email: `${newId()}@example.com`,
    name: 'Ada',
    passwordHash: null,
    createdAt: at(0),
    updatedAt: at(0),
    ...overrides,
  });
}

/** A membership of `user` in the workspace, active unless `acceptedAt` is null. */
export const memberOf = (workspaceId: string, user: UserRecord, overrides: Partial<NewMember> = {}): NewMember => ({
  id: newId(),
  workspaceId,
  userId: user.id,
  email: user.email,
  name: user.name,
  role: 'admin',
  createdAt: at(0),
  acceptedAt: at(0),
  ...overrides,
});

/** What the store reads back for a membership created from `member`. */
export const asRead = ({ acceptedAt, ...member }: NewMember): MemberRecord => ({ ...member, status: acceptedAt === null ? 'invited' : 'active' });

export const webhookRecord = (workspaceId: string, overrides: Partial<WebhookEndpointRecord> = {}): WebhookEndpointRecord => ({
  id: newId(),
  workspaceId,
  url: 'https://hooks.example.com/parley',
  events: ['conversation.resolved'],
  description: '',
  secret: 'whsec_contract',
  enabled: true,
  source: 'webhooks',
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides,
});

export const deliveryRecord = (workspaceId: string, overrides: Partial<NewDelivery> = {}): NewDelivery => ({
  id: newId(),
  workspaceId,
  eventId: newId(),
  eventType: 'conversation.resolved',
  channel: 'email',
  endpointId: null,
  recipients: ['admin@example.com'],
  replayOf: null,
  body: '{"type":"conversation.resolved"}',
  createdAt: at(0),
  ...overrides,
});

/** A new message as the store gives it back: unrated, and neither from nor sent to a channel. */
export const stored = (message: NewMessage): MessageRecord => ({
  ...message,
  eval: null,
  private: message.private ?? false,
  channelMessageId: null,
  delivery: null,
});
export const savedReplyRecord = (workspaceId: string, overrides: Partial<SavedReplyRecord> = {}): SavedReplyRecord => ({
  id: newId(),
  workspaceId,
  shortcut: `reply-${newId().toLowerCase().slice(-8)}`,
  title: 'Refunds',
  text: 'Refunds take five working days.',
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides,
});

export const labelRecord = (workspaceId: string, overrides: Partial<LabelRecord> = {}): LabelRecord => ({
  id: newId(),
  workspaceId,
  name: `Label ${newId().slice(-8)}`,
  color: '#123456',
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides,
});
