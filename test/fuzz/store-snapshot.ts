import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { StoreKind } from '../support/stores.js';

/**
 * Columns that record that a credential was used, not what a request changed: authenticating a request
 * that is then refused may still note the key's or session's last use.
 */
const BOOKKEEPING_COLUMNS: Readonly<Record<string, string>> = { api_key: 'last_used_at', session: 'last_used_at' };

/** Per table, its row count and a hash of all its rows (in a stable order): cheap to take and to compare. */
export type StoreSnapshot = Record<string, string>;

/** Takes a snapshot of every table of the store, whichever dialect. */
export type Snapshotter = () => Promise<StoreSnapshot>;

const rowText = (table: string, row: Record<string, unknown>): string =>
  JSON.stringify(
    Object.entries(row)
      .filter(([column]) => BOOKKEEPING_COLUMNS[table] !== column)
      .map(([column, value]) => [column, value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value]),
    (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value),
  );

/** SQLite is in-process: reading each table whole and hashing here is quick. */
async function hashedInProcess(db: Kysely<Record<string, Record<string, unknown>>>, tables: readonly string[]): Promise<StoreSnapshot> {
  const snapshot: StoreSnapshot = {};
  for (const table of tables) {
    const texts = (await db.selectFrom(table).selectAll().execute()).map((row) => rowText(table, row)).sort();
    snapshot[table] = `${texts.length} rows, ${createHash('sha256').update(texts.join('\n')).digest('hex').slice(0, 16)}`;
  }
  return snapshot;
}

/** PostgreSQL is a round trip away: one statement hashes every table on the server. */
async function hashedInPostgres(db: Kysely<unknown>, tables: readonly string[]): Promise<StoreSnapshot> {
  const perTable = tables.map((table) => {
    const row = sql`(to_jsonb(t) - ${BOOKKEEPING_COLUMNS[table] ?? ''}::text)::text`;
    return sql`SELECT ${table} AS name, count(*) || ' rows, ' || md5(coalesce(string_agg(${row}, E'\\n' ORDER BY ${row}), '')) AS digest FROM ${sql.table(table)} t`;
  });
  const { rows } = await sql<{ name: string; digest: string }>`${sql.join(perTable, sql` UNION ALL `)}`.execute(db);
  return Object.fromEntries(rows.map((row) => [row.name, row.digest]));
}

/**
 * Every table of the store, read through a connection of its own. The fuzzed store holds a few dozen
 * rows, so reading them all is cheaper than anything cleverer.
 */
export async function storeSnapshotter(db: Kysely<unknown>, kind: StoreKind): Promise<Snapshotter> {
  const tables = (await db.introspection.getTables()).map((table) => table.name).sort();
  return kind === 'postgres'
    ? () => hashedInPostgres(db, tables)
    : () => hashedInProcess(db as Kysely<Record<string, Record<string, unknown>>>, tables);
}
