import pg from 'pg';
import { POSTGRES_ADMIN_URL, STORE_KINDS } from './stores.js';

/**
 * Vitest global setup: when the run includes PostgreSQL, make sure it answers and has pgvector before any
 * test starts, so a missing server is one clear message instead of hundreds of connection errors.
 */
export default async function checkPostgres(): Promise<void> {
  if (!STORE_KINDS.includes('postgres')) return;
  const advice =
    'Start it (Debian: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start; pgvector: bash scripts/install-pgvector.sh), ' +
    'point PARLEY_TEST_POSTGRES_URL at one, or run the SQLite half alone with PARLEY_TEST_STORES=sqlite.';
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL} (${(error as Error).message}). ${advice}`);
  }
  try {
    const { rows } = await client.query("select 1 from pg_available_extensions where name = 'vector'");
    if (rows.length === 0) throw new Error(`PostgreSQL at ${POSTGRES_ADMIN_URL} has no pgvector extension. ${advice}`);
  } finally {
    await client.end();
  }
}
