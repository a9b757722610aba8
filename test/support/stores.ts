import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { StoreConfig } from '../../src/config.js';

export type StoreKind = StoreConfig['kind'];

/** The stores every API test runs against; PARLEY_TEST_STORES=sqlite narrows it while working. */
export const STORE_KINDS: readonly StoreKind[] = (process.env.PARLEY_TEST_STORES ?? 'sqlite,postgres')
  .split(',')
  .map((kind) => kind.trim())
  .filter((kind): kind is StoreKind => kind === 'sqlite' || kind === 'postgres');

export const POSTGRES_ADMIN_URL = process.env.PARLEY_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A store of its own for one test file: a new SQLite file or a new PostgreSQL database, dropped after. */
export interface ScratchStore {
  config: StoreConfig;
  /** A data directory of its own (uploaded files, the SQLite file). */
  dataDir: string;
  /** Environment variables that point a child `parley` process at this store. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

export async function createScratchStore(kind: StoreKind): Promise<ScratchStore> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-test-'));
  const removeDir = () => fs.rm(dataDir, { recursive: true, force: true });
  if (kind === 'sqlite') {
    return {
      config: { kind, file: path.join(dataDir, 'parley.sqlite') },
      dataDir,
      env: { PARLEY_DATA_DIR: dataDir },
      drop: removeDir,
    };
  }
  const name = `parley_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    config: { kind, url: url.toString() },
    dataDir,
    env: { PARLEY_DATA_DIR: dataDir, PARLEY_DATABASE_URL: url.toString() },
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
      await removeDir();
    },
  };
}
