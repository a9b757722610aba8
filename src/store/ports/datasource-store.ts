/** Datasources: the documents of a datastore, and their chunks once indexed. */
import type { NewJob } from './job-store.js';
import type { NewOutboxEvent } from './outbox-store.js';
import type { ScopedReads } from './owned-records.js';

export type DatasourceType = 'file' | 'text' | 'web_page' | 'web_site' | 'qa';

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
  /**
   * What makes two datasources of a datastore the same: the SHA-256 of a file's or text's bytes, or of a
   * web page's normalised URL (src/domain/duplicate-keys.ts); null for one made before keys were kept.
   */
  contentKey: string | null;
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

/** A chunk ready to be written: text, vectors and where it came from. */
export interface NewChunk {
  ordinal: number;
  text: string;
  source: string;
  pageNumber: number | null;
  tokens: number;
  /** One per window of the chunk (one for a chunk embedded whole); search scores the chunk by the best. */
  vectors: readonly Float32Array[];
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
  /** A Q&A entry's name follows its question when edited. */
  name?: string;
  status?: DatasourceStatus;
  progress?: number;
  error?: string | null;
  /** Keys merged into the stored config; the others stay, so a setting changed meanwhile is not lost. */
  config?: Record<string, unknown>;
  fileKey?: string | null;
  mimeType?: string | null;
  sizeBytes?: number | null;
}

/** New content for an existing datasource (a replacing upload): it keeps its id and is indexed again. */
export interface ReplacedContent {
  name: string;
  config: Record<string, unknown>;
  fileKey: string | null;
  mimeType: string | null;
  sizeBytes: number | null;
  contentKey: string;
}

/** The outcome of indexing one generation of a datasource. */
export interface IndexedContent {
  chunks: readonly NewChunk[];
  textSize: number;
  totalPages: number | null;
  embeddingModel: string;
  embeddingDimensions: number;
  /** Whether the datastore, whose vectors so far are `adopted`'s (null: none yet), takes vectors of `offered`. */
  modelRule: (adopted: string | null, offered: string) => ModelDecision;
  /** How the chunks were cut into the vectors (src/rag/ingest/vector-windows.ts), recorded with the datasource. */
  vectorLayout: string;
  /** Written to the outbox with the index (`datasource.synched`). */
  event?: NewOutboxEvent;
  /** Keys merged into the config with the index (what the fetch found, for the next conditional one). */
  config?: Record<string, unknown>;
}

export type IndexOutcome = 'written' | 'superseded' | 'model-mismatch';

/** `adopt`: the datastore takes the offered model as its own; `keep`: it is its model already; `refuse`: another model's vectors. */
export type ModelDecision = 'adopt' | 'keep' | 'refuse';

/**
 * A workspace's datasources and their index. Each resync starts a new generation; the job working on an
 * older one finds its reports and its index refused, so a delete or resync always wins over work in flight.
 */
export interface DatasourceStore extends ScopedReads<DatasourceRecord> {
  /** Creates the datasource together with the job that will process it, atomically. */
  create(datasource: DatasourceRecord, job: NewJob): Promise<void>;
  listByDatastore(workspaceId: string, datastoreId: string): Promise<DatasourceRecord[]>;
  /** The datasources whose group is `groupId` (a site and its pages), oldest first. */
  listByGroup(workspaceId: string, groupId: string): Promise<DatasourceRecord[]>;
  /** A new generation: status pending, progress 0, and a job for it, atomically. */
  requeue(workspaceId: string, id: string, job: (generation: number) => NewJob): Promise<DatasourceRecord | undefined>;
  /**
   * Replaces what the datasource is made from and starts a new generation with a job for it, atomically (as
   * `requeue`); undefined when it is not in the workspace.
   */
  replaceContent(
    workspaceId: string,
    id: string,
    content: ReplacedContent,
    job: (generation: number) => NewJob,
  ): Promise<DatasourceRecord | undefined>;
  /** The datastore's datasources holding this content key, oldest first. */
  findByContentKey(workspaceId: string, datastoreId: string, contentKey: string): Promise<DatasourceRecord[]>;
  /** The datastore's datasources of these types with this name, oldest first. */
  findByName(workspaceId: string, datastoreId: string, name: string, types: readonly DatasourceType[]): Promise<DatasourceRecord[]>;
  /** The datastore's datasources of these types made before content keys were kept, to key them. */
  listWithoutContentKey(workspaceId: string, datastoreId: string, types: readonly DatasourceType[]): Promise<DatasourceRecord[]>;
  setContentKey(workspaceId: string, id: string, contentKey: string): Promise<void>;
  /** Moves an unsynched datasource to pending once its job is safely queued. */
  markQueued(workspaceId: string, id: string): Promise<void>;
  /**
   * The datasource's current generation, undefined once it is deleted (or not in the workspace): one
   * indexed read, cheap enough for a running job to poll so that a delete or resync made in another
   * process stops it.
   */
  generation(workspaceId: string, id: string): Promise<number | undefined>;
  /**
   * Records progress of `generation`; false when the datasource was deleted or re-synced meanwhile (or is
   * not in the workspace). `event` is written to the outbox with the change, only if it applied.
   */
  report(workspaceId: string, id: string, generation: number, progress: DatasourceProgress, event?: NewOutboxEvent): Promise<boolean>;
  /**
   * Replaces the datasource's chunks, vectors and keyword entries with `content` and marks it synched,
   * in one transaction: a crash leaves the old set or the new one, never both or half. `superseded` when
   * `generation` is no longer the datasource's (or it is not in the workspace).
   */
  writeIndex(workspaceId: string, id: string, generation: number, content: IndexedContent): Promise<IndexOutcome>;
  delete(workspaceId: string, id: string): Promise<DatasourceRecord | undefined>;
  /**
   * Replaces the config with what `change` makes of the stored one, the row held meanwhile: a compare and
   * set across processes. `change` answers undefined to leave it; then, or when the datasource is not the
   * workspace's, the answer is undefined; otherwise the updated record.
   */
  changeConfig(
    workspaceId: string,
    id: string,
    change: (config: Record<string, unknown>) => Record<string, unknown> | undefined,
  ): Promise<DatasourceRecord | undefined>;
  /** The datasource's chunks in document order, `limit` from `offset`. */
  listChunks(workspaceId: string, id: string, page: { offset: number; limit: number }): Promise<ChunkRecord[]>;
  /** Characters of indexed text the workspace stores, for the content quota. */
  storedTextSize(workspaceId: string): Promise<number>;
  /**
   * Datasources of datastores whose vectors were made with another model than `modelId`. Workspace-free:
   * the embedding model is the instance's, so a change of it concerns every workspace at once (checked
   * at start); each record carries its workspace for the re-embedding that follows.
   */
  listEmbeddedWithOtherModel(modelId: string): Promise<DatasourceRecord[]>;
  /**
   * Indexed datasources whose vector layout is not their datastore's: `windowed` where the datastore has
   * vector windows on, `whole` where it has them off. Workspace-free, like the model check at start.
   */
  listWithOtherVectorLayout(layouts: { windowed: string; whole: string }): Promise<DatasourceRecord[]>;
}
