import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { ParleyMigrationProvider } from '../../src/store/migrations/index.js';
import { POSTGRES_CAPABILITIES } from '../../src/store/postgres/postgres-store.js';
import { SQLITE_CAPABILITIES } from '../../src/store/sqlite/sqlite-store.js';
import type { ScratchStore } from './stores.js';

/** A bare connection to a scratch store, as the migrator sees it (foreign keys on, as the store runs). */
export function connectBare(scratch: ScratchStore): Kysely<unknown> {
  if (scratch.config.kind === 'sqlite') {
    const database = new SQLite(scratch.config.file);
    database.pragma('foreign_keys = ON');
    return new Kysely({ dialect: new SqliteDialect({ database }) });
  }
  return new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: scratch.config.url, max: 1 }) }) });
}

/** Migrates a bare connection up to `name` (and no further), as a store of that release would be. */
export async function migrateTo(db: Kysely<unknown>, scratch: ScratchStore, name: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: new ParleyMigrationProvider(scratch.config.kind === 'sqlite' ? SQLITE_CAPABILITIES : POSTGRES_CAPABILITIES),
    migrationTableName: 'parley_migration',
    migrationLockTableName: 'parley_migration_lock',
  });
  const { error } = await migrator.migrateTo(name);
  if (error !== undefined) throw error;
}
