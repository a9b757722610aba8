import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { BlobStore } from '../ports/blob-store.js';

/** Part size: large enough for few rows, small enough that memory stays bounded for big uploads. */
const PART_BYTES = 1024 * 1024;

/** Blobs in the database, in parts, so every `parley worker` on any machine can read every upload. */
export class SqlBlobStore implements BlobStore {
  constructor(private readonly db: Kysely<Database>) {}

  async put(key: string, sourcePath: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('blob_part').where('key', '=', key).execute();
      let part = 0;
      for await (const data of createReadStream(sourcePath, { highWaterMark: PART_BYTES })) {
        await trx
          .insertInto('blob_part')
          .values({ key, part, data: data as Buffer })
          .execute();
        part += 1;
      }
      // An empty file is still a file: part 0 records that it exists.
      if (part === 0)
        await trx
          .insertInto('blob_part')
          .values({ key, part, data: Buffer.alloc(0) })
          .execute();
    });
    await fs.rm(sourcePath, { force: true });
  }

  async withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T> {
    const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-blob-'));
    const file = path.join(directory, 'content');
    try {
      const out = createWriteStream(file);
      for (let part = 0; ; part += 1) {
        const row = await this.db.selectFrom('blob_part').select('data').where('key', '=', key).where('part', '=', part).executeTakeFirst();
        if (row === undefined) {
          if (part === 0) throw new Error(`blob ${key} does not exist`);
          break;
        }
        if (!out.write(row.data)) await once(out, 'drain');
      }
      out.end();
      await once(out, 'finish');
      return await use(file);
    } finally {
      await fs.rm(directory, { recursive: true, force: true });
    }
  }

  async delete(key: string): Promise<void> {
    await this.db.deleteFrom('blob_part').where('key', '=', key).execute();
  }
}
