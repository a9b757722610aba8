import type { Generated } from 'kysely';
import type {
  ChannelConnectionTable,
  DeliveryAttemptTable,
  DeliveryTable,
  ModelProviderTable,
  ModelRouteTable,
  WebhookEndpointTable,
} from './integration-tables.js';

/**
 * The tables as both dialects store them. Times are ISO 8601 UTC text so that both stores sort and
 * return them identically; JSON values are text for the same reason.
 */
export interface WorkspaceTable {
  id: string;
  name: string;
  /** JSON object: notification settings; missing fields take their defaults. */
  settings: Generated<string>;
  created_at: string;
}

export interface ApiKeyTable {
  id: string;
  workspace_id: string;
  name: string;
  /** The first characters of the key, shown so people can tell keys apart. */
  prefix: string;
  /** SHA-256 of the whole key, hex; the key itself is never stored. */
  hash: string;
  created_at: string;
  last_used_at: string | null;
  /** The user who made the key; null for the operator's keys (first start, `parley keys create`). */
  created_by: string | null;
}

export interface AgentTable {
  id: string;
  workspace_id: string;
  name: string;
  description: string;
  model_name: string;
  temperature: number;
  visibility: string;
  system_prompt: string | null;
  user_prompt: string;
  icon_url: string | null;
  handle: string | null;
  created_at: string;
  updated_at: string;
  /** JSON array of web origins allowed to call the agent's public endpoints; empty allows any. */
  allowed_origins: string;
  /** JSON object: the widget settings that differ from the defaults. */
  widget_settings: Generated<string>;
  /** 1: the agent answers until a member takes over, even after the visitor asked for a person. */
  keep_answering_until_taken_over: Generated<number>;
}

export interface AgentDatastoreTable {
  agent_id: string;
  datastore_id: string;
  workspace_id: string;
  position: number;
}

export interface DatastoreTable {
  id: string;
  workspace_id: string;
  name: string;
  description: string;
  type: string;
  visibility: string;
  embedding_model: string | null;
  embedding_dimensions: number | null;
  content_version: Generated<number>;
  vector_weight: number;
  keyword_weight: number;
  /** 1: chunks longer than the model reads are embedded as windows; 0: one vector per chunk. */
  vector_windows: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface DatasourceTable {
  id: string;
  workspace_id: string;
  datastore_id: string;
  type: string;
  name: string;
  status: string;
  custom_id: string | null;
  group_id: string | null;
  /** JSON object: source_url, file name, kind… */
  config: string;
  file_key: string | null;
  mime_type: string | null;
  /** pg returns bigint as text. */
  size_bytes: number | string | null;
  error: string | null;
  progress: number;
  nb_chunks: number;
  text_size: number;
  total_pages: number | null;
  /** Bumped by every re-sync: work for an older generation is discarded, never written. */
  generation: number;
  /** How its chunks were embedded (src/rag/ingest/vector-windows.ts); null until indexed. */
  vector_layout: string | null;
  /** What makes two datasources of a datastore the same (src/domain/duplicate-keys.ts); null until keyed. */
  content_key: string | null;
  last_synch: string | null;
  created_at: string;
  updated_at: string;
}

export interface ChunkTable {
  id: string;
  workspace_id: string;
  datastore_id: string;
  datasource_id: string;
  custom_id: string | null;
  ordinal: number;
  text: string;
  source: string;
  page_number: number | null;
  tokens: number;
}

/** A vector of a chunk: one per window of its text, or one for the whole chunk. */
export interface ChunkVectorTable {
  /** Never reused (AUTOINCREMENT, identity): the embedded store's HNSW labels are these ids. */
  id: Generated<number>;
  chunk_id: string;
  datastore_id: string;
  datasource_id: string;
  dimensions: number;
  /** float32 little-endian bytes (SQLite) or pgvector text such as "[0.1,0.2]" (PostgreSQL). */
  embedding: Uint8Array | string;
}

export interface JobTable {
  id: string;
  workspace_id: string | null;
  kind: string;
  payload: string;
  status: string;
  attempts: number;
  max_attempts: number;
  run_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  /** The API request that enqueued it (migration 009). */
  request_id: string | null;
}

export interface BlobPartTable {
  key: string;
  part: number;
  data: Uint8Array;
}

export interface ContactTable {
  id: string;
  workspace_id: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone_number: string | null;
  created_at: string;
  updated_at: string;
}

export interface VisitorTable {
  id: string;
  workspace_id: string;
  contact_id: string | null;
  created_at: string;
  updated_at: string;
}

/** Booleans are integers 0/1 in both dialects, so one code path reads them. */
export interface ConversationTable {
  id: string;
  workspace_id: string;
  agent_id: string | null;
  channel: string;
  channel_external_id: string | null;
  status: string;
  is_ai_enabled: number;
  title: string;
  /** JSON object. */
  metadata: string;
  visitor_id: string | null;
  contact_id: string | null;
  created_at: string;
  updated_at: string;
  /** The member handling it; null while unassigned. */
  assignee_id: string | null;
  /** 1: a signed-in member asked through the dashboard's playground (the team's own test). */
  playground: Generated<number>;
  /** JSON VisitorContext: what the widget told of the page the conversation started on; null when nothing was. */
  visitor_context: string | null;
}

/** A status a conversation took, and when (the first row: the status it started with). */
export interface ConversationStatusChangeTable {
  id: Generated<number>;
  workspace_id: string;
  conversation_id: string;
  status: string;
  changed_at: string;
}

export interface MessageTable {
  id: string;
  workspace_id: string;
  conversation_id: string;
  from: string;
  text: string;
  /** JSON array. */
  sources: string;
  eval: string | null;
  read: number;
  /** JSON array. */
  attachments: string;
  /** JSON object: promptTokens, completionTokens, totalTokens. */
  usage: string | null;
  model: string | null;
  visitor_id: string | null;
  /** The member who wrote it (a person answering for the workspace); null for visitors, the agent, the system. */
  member_id: string | null;
  created_at: string;
  /** 1: an agent answer that stopped before its end, or is still being written. */
  interrupted: number;
  /** JSON MessageNotice of a system message the server wrote; null otherwise. */
  notice: string | null;
  /** The channel vendor's id of a message that came from outside, or of what we sent out; unique per conversation. */
  channel_message_id: string | null;
  /** pending | sent | failed for a message that goes out through a channel; null for the rest. */
  delivery_state: string | null;
  delivery_error: string | null;
  /** 1: a member's private note, which only members see. */
  private: Generated<number>;
}

/** A canned answer a member inserts in a reply by its shortcut. */
export interface SavedReplyTable {
  id: string;
  workspace_id: string;
  /** Unique per workspace: a-z, 0-9 and '-'. */
  shortcut: string;
  title: string;
  text: string;
  created_at: string;
  updated_at: string;
}

/** A workspace's label, put on conversations. */
export interface LabelTable {
  id: string;
  workspace_id: string;
  /** Unique per workspace. */
  name: string;
  /** `#rrggbb`. */
  color: string;
  created_at: string;
  updated_at: string;
}

/** A label on a conversation. */
export interface ConversationLabelTable {
  workspace_id: string;
  conversation_id: string;
  label_id: string;
  created_at: string;
}

export interface EventOutboxTable {
  /** Grows in commit order within a workspace (set by the database); pg returns bigint as text. */
  seq: Generated<number | string>;
  id: string;
  workspace_id: string;
  type: string;
  /** JSON object. */
  payload: string;
  created_at: string;
  dispatched_at: string | null;
  /** The API request whose change it reports (migration 009). */
  request_id: string | null;
}

export interface MemberTable {
  id: string;
  workspace_id: string;
  /** The user's e-mail and name when the member was added (the user's own are read through `user_id`). */
  email: string;
  name: string;
  role: string;
  created_at: string;
  user_id: string;
  /** Null while the invitation is open. */
  accepted_at: string | null;
}

export interface AppUserTable {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  created_at: string;
  updated_at: string;
  /** Access tokens carrying an older generation are revoked. */
  auth_generation: Generated<number>;
}

export interface UserSessionTable {
  id: string;
  token_hash: string;
  user_id: string;
  user_agent: string;
  created_at: string;
  last_seen_at: string;
  revoked_at: string | null;
}

export interface OneTimeLinkTable {
  token_hash: string;
  purpose: string;
  user_id: string | null;
  workspace_id: string | null;
  member_id: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** Secrets the store's processes share (the visitor-token signing key), made once on first use. */
export interface InstanceSecretTable {
  name: string;
  value: string;
  created_at: string;
}

/** A question an agent could not answer from its datastores. */
export interface KnowledgeGapTable {
  id: string;
  workspace_id: string;
  agent_id: string | null;
  conversation_id: string;
  /** The agent's answer. */
  message_id: string;
  question: string;
  /** The question normalised so that repeats of it group together. */
  question_key: string;
  reason: string;
  best_score: number | null;
  created_at: string;
}

export interface Database {
  workspace: WorkspaceTable;
  api_key: ApiKeyTable;
  agent: AgentTable;
  agent_datastore: AgentDatastoreTable;
  datastore: DatastoreTable;
  datasource: DatasourceTable;
  chunk: ChunkTable;
  chunk_vector: ChunkVectorTable;
  job: JobTable;
  blob_part: BlobPartTable;
  contact: ContactTable;
  visitor: VisitorTable;
  conversation: ConversationTable;
  message: MessageTable;
  event_outbox: EventOutboxTable;
  member: MemberTable;
  webhook_endpoint: WebhookEndpointTable;
  delivery: DeliveryTable;
  delivery_attempt: DeliveryAttemptTable;
  instance_secret: InstanceSecretTable;
  app_user: AppUserTable;
  user_session: UserSessionTable;
  one_time_link: OneTimeLinkTable;
  knowledge_gap: KnowledgeGapTable;
  model_provider: ModelProviderTable;
  model_route: ModelRouteTable;
  channel_connection: ChannelConnectionTable;
  conversation_status_change: ConversationStatusChangeTable;
  saved_reply: SavedReplyTable;
  label: LabelTable;
  conversation_label: ConversationLabelTable;
}
