/** Datastores: collections of datasources whose chunks are searched together. */
import type { Changes, ScopedReads, Visibility } from './owned-records.js';

/** The only kind of datastore so far: chunks with vectors and a keyword index. */
export type DatastoreType = 'vector_a';

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
  /** Chunks longer than the embedding model reads are embedded as overlapping windows (default true). */
  vectorWindows: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A workspace's datastores; what they hold is in the datasource store. */
export interface DatastoreStore extends ScopedReads<DatastoreRecord> {
  create(datastore: DatastoreRecord): Promise<void>;
  update(workspaceId: string, id: string, changes: Changes<DatastoreRecord>, at: string): Promise<DatastoreRecord | undefined>;
  /** Forgets the embedding model, so the next indexed datasource sets it (after a model change). */
  resetEmbeddingModel(workspaceId: string, id: string): Promise<void>;
  /** Deletes the datastore and everything in it; agents linked to it lose the link. */
  delete(workspaceId: string, id: string): Promise<DatastoreRecord | undefined>;
}
