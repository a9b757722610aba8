import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type Generated } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withStatementCache } from '../../src/store/sqlite/statement-cache.js';

describe('SQLite statement cache', () => {
  let dir: string;
  let database: SQLite.Database;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-statements-'));
    database = new SQLite(path.join(dir, 'test.sqlite'));
    database.exec('CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
    const insert = database.prepare('INSERT INTO item (name) VALUES (?)');
    for (const name of ['a', 'b', 'c']) insert.run(name);
  });
  afterEach(() => {
    database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('hands out the compiled statement again for the same SQL', () => {
    const cached = withStatementCache(database);
    const first = cached.prepare('SELECT name FROM item WHERE id = ?');
    expect(cached.prepare('SELECT name FROM item WHERE id = ?')).toBe(first);
    expect(cached.prepare('SELECT name FROM item WHERE id > ?')).not.toBe(first);
  });

  it('compiles a second statement while the first is still being iterated', () => {
    const cached = withStatementCache(database);
    const query = 'SELECT name FROM item ORDER BY id';
    const streaming = cached.prepare(query);
    const names: unknown[] = [];
    for (const row of streaming.iterate([])) {
      const again = cached.prepare(query);
      expect(again).not.toBe(streaming);
      names.push(row, again.all([]).length);
    }
    expect(names).toEqual([{ name: 'a' }, 3, { name: 'b' }, 3, { name: 'c' }, 3]);
  });

  it('serves Kysely queries, writes included, with the same results as without it', async () => {
    const db = new Kysely<{ item: { id: Generated<number>; name: string } }>({
      dialect: new SqliteDialect({ database: withStatementCache(database) }),
    });
    for (const name of ['d', 'e']) await db.insertInto('item').values({ name }).execute();
    const byId = (id: number) => db.selectFrom('item').select('name').where('id', '=', id).executeTakeFirst();
    expect([await byId(1), await byId(5)]).toEqual([{ name: 'a' }, { name: 'e' }]);
    const streamed: string[] = [];
    for await (const row of db.selectFrom('item').select('name').orderBy('id').stream()) streamed.push(row.name);
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM item`.execute(db);
    streamed.push(String(rows[0]!.n));
    expect(streamed).toEqual(['a', 'b', 'c', 'd', 'e', '5']);
  });
});
