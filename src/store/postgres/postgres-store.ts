import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../schema.js';
import { SqlBlobStore } from '../sql/sql-blob-store.js';
import { PostgresChunkSearch, ensureVectorIndex } from './postgres-chunk-search.js';
import { listenOn } from './postgres-listener.js';
import type { SqlConnection } from '../sql/sql-dialect.js';
import { createSqlStore } from '../sql/sql-store.js';
import type { StoreCapabilities } from '../ports/store-capabilities.js';
import type { Store } from '../store.js';

/** Many connections that lock rows; vectors indexed by pgvector, keywords by tsvector, both in the database. */
export const POSTGRES_CAPABILITIES: StoreCapabilities = Object.freeze({
  dialect: 'postgres',
  supportsRowLocks: true,
  vectorIndex: 'pgvector',
  keywordIndex: 'tsvector',
});

/** Connects to PostgreSQL (scale-out mode); the pool is closed with the store. */
export function openPostgresStore(url: string): Store {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection the server closed (restart, failover) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const indexedDimensions = new Set<number>();
  let writtenSinceAnalyze = 0;
  const connection: SqlConnection = {
    db,
    capabilities: POSTGRES_CAPABILITIES,
    encodeVector: (vector) => `[${vector.join(',')}]`,
    prepareVectorIndex: async (dimensions) => {
      if (indexedDimensions.has(dimensions)) return;
      await ensureVectorIndex(db, dimensions);
      indexedDimensions.add(dimensions);
    },
    listen: (channel, onNotice) => listenOn(url, channel, onNotice),
    // Right after a bulk load the planner has no statistics and scans instead of using the HNSW index.
    afterChunksWritten: async (rows) => {
      writtenSinceAnalyze += rows;
      if (writtenSinceAnalyze < 1000) return;
      writtenSinceAnalyze = 0;
      await sql`ANALYZE chunk`.execute(db);
    },
  };
  return createSqlStore(connection, { blobs: new SqlBlobStore(db), search: new PostgresChunkSearch(db) });
}
