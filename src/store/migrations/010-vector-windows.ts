import { sql, type Kysely } from 'kysely';
import type { DialectTypes } from './dialect-types.js';

/**
 * Vectors move out of `chunk` into `chunk_vector`, one row per window of a chunk (src/rag/ingest/
 * vector-windows.ts): existing chunks keep their one vector as their one window, recorded as the `whole`
 * layout, and are re-embedded in windows at the next start. Datastores get the setting to turn windows off.
 */
export async function up(db: Kysely<unknown>, types: DialectTypes): Promise<void> {
  await db.schema
    .alterTable('datastore')
    .addColumn('vector_windows', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('datasource').addColumn('vector_layout', 'text').execute();
  await sql`UPDATE datasource SET vector_layout = 'whole' WHERE last_synch IS NOT NULL`.execute(db);

  await db.schema
    .createTable('chunk_vector')
    .addColumn('id', types.serial, (c) => types.neverReused(c.primaryKey()))
    .addColumn('chunk_id', 'text', (c) => c.notNull().references('chunk.id').onDelete('cascade'))
    .addColumn('datastore_id', 'text', (c) => c.notNull())
    .addColumn('datasource_id', 'text', (c) => c.notNull())
    .addColumn('dimensions', 'integer', (c) => c.notNull())
    .addColumn('embedding', types.vector, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('chunk_vector_chunk').on('chunk_vector').column('chunk_id').execute();
  await db.schema.createIndex('chunk_vector_datastore').on('chunk_vector').columns(['datastore_id', 'dimensions']).execute();
  await db.schema.createIndex('chunk_vector_datasource').on('chunk_vector').column('datasource_id').execute();
  await sql`INSERT INTO chunk_vector (chunk_id, datastore_id, datasource_id, dimensions, embedding)
    SELECT id, datastore_id, datasource_id, dimensions, embedding FROM chunk ORDER BY datasource_id, ordinal`.execute(db);
  // PostgreSQL drops the HNSW indexes on chunk.embedding with the column; they are made anew on chunk_vector.
  await db.schema.alterTable('chunk').dropColumn('embedding').execute();
  await db.schema.alterTable('chunk').dropColumn('dimensions').execute();
  if (!types.vectorExtension) return;
  const { rows } = await sql<{ dimensions: number }>`SELECT DISTINCT dimensions FROM chunk_vector`.execute(db);
  for (const { dimensions } of rows) {
    await sql
      .raw(
        `CREATE INDEX chunk_vector_hnsw_${dimensions} ON chunk_vector USING hnsw ((embedding::vector(${dimensions})) vector_cosine_ops) WHERE dimensions = ${dimensions}`,
      )
      .execute(db);
  }
}
