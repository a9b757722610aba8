/**
 * What differs between the adapters, as flags rather than dialect checks outside `store/`. Each adapter
 * (`sqlite/sqlite-store.ts`, `postgres/postgres-store.ts`) declares its flags once; the shared SQL code
 * reads them from its connection and the migrations from the same object.
 */
export interface StoreCapabilities {
  /**
   * The SQL dialect; read only to spell the migrations' column types (`migrations/dialect-types.ts`) and the
   * few functions the dialects name differently (`sql/dialect-functions.ts`).
   */
  readonly dialect: 'sqlite' | 'postgres';
  /** `SELECT … FOR UPDATE` (and `SKIP LOCKED`) exists; SQLite has none and serialises writers instead. */
  readonly supportsRowLocks: boolean;
  /**
   * Where chunk vectors are indexed: float32 blobs with an HNSW index per datastore kept by this process, or
   * pgvector's `vector` column with HNSW indexes in the database.
   */
  readonly vectorIndex: 'hnsw-in-process' | 'pgvector';
  /** How chunk keywords are indexed: an FTS5 table beside `chunk`, or a generated `tsvector` column with GIN. */
  readonly keywordIndex: 'fts5' | 'tsvector';
}
