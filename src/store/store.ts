/**
 * The store ports: what the domain needs from persistence. Every read and write of workspace data takes
 * the workspace id, so no query can reach another workspace's rows by id alone.
 */

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
  createdAt: string;
  updatedAt: string;
}

/** The fields of a record that a caller may change; ids, owner and times are the store's. */
export type Changes<T> = Partial<Omit<T, 'id' | 'workspaceId' | 'createdAt' | 'updatedAt'>>;

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
  findByName(name: string): Promise<WorkspaceRecord | undefined>;
  list(): Promise<WorkspaceRecord[]>;
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
  /** Deletes the datastore and everything in it; agents linked to it lose the link. */
  delete(workspaceId: string, id: string): Promise<DatastoreRecord | undefined>;
}

/** What differs between the adapters, as flags rather than dialect checks outside `store/`. */
export interface StoreCapabilities {
  readonly dialect: 'sqlite' | 'postgres';
  /** Several processes may share the store (claiming jobs with row locks). */
  readonly multiProcess: boolean;
}

export interface Store {
  readonly capabilities: StoreCapabilities;
  readonly workspaces: WorkspaceStore;
  readonly apiKeys: ApiKeyStore;
  readonly agents: AgentStore;
  readonly datastores: DatastoreStore;
  /** Applies pending migrations; returns the names applied. */
  migrate(): Promise<string[]>;
  /** Throws when the store cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
