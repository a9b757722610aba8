/** Chunk search: the vector and keyword engines that find passages in a workspace's datastores. */
import type { DatasourceType } from './datasource-store.js';

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
   * Nearest chunks by cosine similarity to `vector` (a unit vector), best first; a chunk embedded in
   * windows scores as its best window (max-sim). The vector may still be on its way (the query being embedded): an adapter looks up the scope meanwhile.
   */
  vectorSearch(scope: SearchScope, vector: Float32Array | Promise<Float32Array>, limit: number): Promise<ChunkHit[]>;
  /** Chunks matching the words of `query`, best first (BM25 in SQLite, ts_rank_cd in PostgreSQL). */
  keywordSearch(scope: SearchScope, query: string, limit: number): Promise<ChunkHit[]>;
  /** The chunks' texts and origins, in the order of `chunkIds`; ids outside the workspace are dropped. */
  details(workspaceId: string, chunkIds: readonly string[]): Promise<ChunkDetails[]>;
  /**
   * Loads what the first search of a datastore would otherwise wait for, for the `maxDatastores` changed
   * last: the embedded store's vector indexes, read into memory. An engine that keeps its own (pgvector) has none.
   */
  warmUp?(maxDatastores: number): Promise<void>;
}
