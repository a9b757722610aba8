import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../schema.js';
import { LocalBlobStore } from '../files/local-blob-store.js';
import { SqliteChunkSearch } from './sqlite-chunk-search.js';
import { withStatementCache } from './statement-cache.js';
import { createSqlStore } from '../sql/sql-store.js';
import { outageAware } from '../sql/outage-aware-dialect.js';
import type { StoreCapabilities } from '../ports/store-capabilities.js';
import type { Store } from '../store.js';
import { encodeStoredVector } from './stored-vector.js';

/** One file, one writer at a time (no row locks); vectors indexed in this process, keywords by FTS5. */
export const SQLITE_CAPABILITIES: StoreCapabilities = Object.freeze({
  dialect: 'sqlite',
  supportsRowLocks: false,
  vectorIndex: 'hnsw-in-process',
  keywordIndex: 'fts5',
});

/** The folders beside the database file in the data directory: uploaded files, and the saved vector indexes. */
export const EMBEDDED_FOLDERS = Object.freeze({ blobs: 'files', indexes: 'indexes' });

/** Opens (creating if needed) the embedded store: one SQLite file in WAL mode. */
export function openSqliteStore(file: string, dataDirectory: string): Store {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  // Another process (a `parley worker`, the CLI) may hold the write lock for a moment.
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  const db = new Kysely<Database>({ dialect: outageAware(new SqliteDialect({ database: withStatementCache(database) })) });
  // Read before every keyed request (the key cache's check): prepared once.
  const dataVersion = database.prepare('PRAGMA data_version').pluck();
  return createSqlStore(
    {
      db,
      capabilities: SQLITE_CAPABILITIES,
      encodeVector: encodeStoredVector,
      foreignWrites: () => Number(dataVersion.get()),
    },
    {
      blobs: new LocalBlobStore(path.join(dataDirectory, EMBEDDED_FOLDERS.blobs)),
      search: new SqliteChunkSearch(db, path.join(dataDirectory, EMBEDDED_FOLDERS.indexes)),
    },
  );
}
