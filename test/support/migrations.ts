import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { ParleyMigrationProvider } from '../../src/store/migrations/index.js';
import { POSTGRES_CAPABILITIES } from '../../src/store/postgres/postgres-store.js';
import { SQLITE_CAPABILITIES } from '../../src/store/sqlite/sqlite-store.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { createScratchStore, type ScratchStore, type StoreKind } from './stores.js';

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

/** A store of an earlier release, opened by this build; `close` closes and drops it. */
export interface MigratedStore {
  scratch: ScratchStore;
  store: Store;
  close(): Promise<void>;
}

/**
 * A scratch store migrated up to `name`, holding what `seed` writes over a bare connection (the data a
 * store of that release had), then opened as Parley opens it: migrated to the latest.
 */
export async function openMigratedFrom(kind: StoreKind, name: string, seed: (db: Kysely<unknown>) => Promise<void>): Promise<MigratedStore> {
  const scratch = await createScratchStore(kind);
  const db = connectBare(scratch);
  try {
    await migrateTo(db, scratch, name);
    await seed(db);
  } finally {
    await db.destroy();
  }
  const store = await openStore(scratch.config, scratch.dataDir);
  return {
    scratch,
    store,
    async close() {
      await store.close();
      await scratch.drop();
    },
  };
}
