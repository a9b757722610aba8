import type { StoreConfig } from '../config.js';
import { openPostgresStore } from './postgres/postgres-store.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './store.js';

/** Opens the configured store and brings its schema up to date. */
export async function openStore(config: StoreConfig, dataDir: string): Promise<Store> {
  const store = config.kind === 'sqlite' ? openSqliteStore(config.file, dataDir) : openPostgresStore(config.url);
  try {
    await store.migrate();
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
