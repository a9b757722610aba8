import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../schema.js';
import { createSqlStore } from '../sql/sql-store.js';
import type { Store } from '../store.js';

/** Connects to PostgreSQL (scale-out mode); the pool is closed with the store. */
export function openPostgresStore(url: string): Store {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return createSqlStore({ db, capabilities: { dialect: 'postgres', multiProcess: true }, supportsRowLocks: true });
}
