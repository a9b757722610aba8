import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { TestParley } from './parley.js';

/**
 * Everything the store holds, as text, to show a secret is not kept in clear: the SQLite files' bytes (WAL
 * included), or PostgreSQL's rows of `table`.
 */
export async function storedBytes(parley: TestParley, table: string): Promise<string> {
  const { config } = parley.scratch;
  if (config.kind === 'sqlite') {
    const dir = path.dirname(config.file);
    const files = (await fs.readdir(dir)).filter((name) => name.startsWith(path.basename(config.file)));
    const contents = await Promise.all(files.map((name) => fs.readFile(path.join(dir, name))));
    return Buffer.concat(contents).toString('latin1');
  }
  const client = new pg.Client({ connectionString: config.url });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT * FROM ${table}`);
    return JSON.stringify(rows);
  } finally {
    await client.end();
  }
}
