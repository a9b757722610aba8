import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../schema.js';
import { SqlBlobStore } from '../sql/sql-blob-store.js';
import { PostgresChunkSearch, ensureVectorIndex } from './postgres-chunk-search.js';
import { listenOn } from './postgres-listener.js';
import type { SqlConnection } from '../sql/sql-dialect.js';
import { createSqlStore } from '../sql/sql-store.js';
import { outageAware } from '../sql/outage-aware-dialect.js';
import type { StoreCapabilities } from '../ports/store-capabilities.js';
import type { Store } from '../store.js';

/** Many connections that lock rows; vectors indexed by pgvector, keywords by tsvector, both in the database. */
export const POSTGRES_CAPABILITIES: StoreCapabilities = Object.freeze({
  dialect: 'postgres',
  supportsRowLocks: true,
  vectorIndex: 'pgvector',
  keywordIndex: 'tsvector',
});

/**
 * How long opening a connection (the pool's or the listener's), or waiting for a free one of the pool, may
 * take before it fails as UNAVAILABLE: a database that does not answer costs a request this long, not forever.
 */
const CONNECTION_TIMEOUT_MS = 5_000;

/** Connects to PostgreSQL (scale-out mode); the pool is closed with the store. */
export function openPostgresStore(url: string): Store {
  const server: pg.ClientConfig = { connectionString: url, connectionTimeoutMillis: CONNECTION_TIMEOUT_MS };
  const pool = new pg.Pool({ ...server, max: 10 });
  // A connection the server closed or reset (restart, failover, pg_terminate_backend) emits 'error', which
  // unheard ends the process. The pool hears its idle ones and drops them; a connection checked out has no
  // listener of the pool's, so each gets one of ours: its query fails with the error (as UNAVAILABLE), and
  // the pool drops it when it comes back.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<Database>({ dialect: outageAware(new PostgresDialect({ pool })) });
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
    listen: (channel, onNotice, name) => listenOn(server, channel, onNotice, name),
    listenersNamed: async (prefix) => {
      const { rows } = await sql<{ name: string }>`
        select application_name as name from pg_stat_activity
        where datname = current_database() and starts_with(application_name, ${prefix})`.execute(db);
      return rows.map((row) => row.name);
    },
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
