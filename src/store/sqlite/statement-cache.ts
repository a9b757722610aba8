import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';
import { LRUCache } from 'lru-cache';

/**
 * Distinct SQL texts kept compiled. Queries with `IN (?, ?, …)` lists make a text per list length, so
 * the bound is well above the number of queries the code has.
 */
const CACHED_STATEMENTS = 500;

/**
 * The database as Kysely sees it, with compiled statements reused: Kysely's SQLite driver prepares
 * every query anew, and compiling costs more than running the short queries a request makes (measured
 * on the query endpoint). A statement still being iterated (a streamed select) is busy and cannot run
 * twice at once, so it is never handed out again while busy.
 */
export function withStatementCache(database: SQLite.Database): SqliteDatabase {
  const statements = new LRUCache<string, SQLite.Statement>({ max: CACHED_STATEMENTS });
  return {
    close: () => database.close(),
    prepare(sql) {
      const cached = statements.get(sql);
      if (cached !== undefined && !cached.busy) return cached;
      const statement = database.prepare(sql);
      statements.set(sql, statement);
      return statement;
    },
  };
}
