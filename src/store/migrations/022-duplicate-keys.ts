import type { Kysely } from 'kysely';

/**
 * `datasource.content_key`: what makes two datasources of a datastore the same (the SHA-256 of a file's or
 * a text's bytes, or of a web page's normalised URL; src/domain/duplicate-keys.ts), looked up by datastore
 * before anything is added, so the same content is not silently indexed twice. Rows older than this are
 * keyed lazily, a datastore at a time, on the next addition to it: hashing their blobs here would make the
 * upgrade as slow as reading every stored file.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('datasource').addColumn('content_key', 'text').execute();
  await db.schema.createIndex('datasource_content_key').on('datasource').columns(['datastore_id', 'content_key']).execute();
}
