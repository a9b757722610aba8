import { sql, type Kysely } from 'kysely';
import type { DialectTypes } from './dialect-types.js';

/**
 * Datasources, their chunks (text, vector, keyword index), the durable job queue and, for PostgreSQL,
 * uploaded files kept in the database so every worker process can read them.
 */
export async function up(db: Kysely<unknown>, types: DialectTypes): Promise<void> {
  if (types.vectorExtension) await sql`CREATE EXTENSION IF NOT EXISTS vector`.execute(db);
  await db.schema.alterTable('datastore').addColumn('embedding_model', 'text').execute();
  await db.schema.alterTable('datastore').addColumn('embedding_dimensions', 'integer').execute();
  // Per-datastore weights of the two engines in hybrid search.
  await db.schema
    .alterTable('datastore')
    .addColumn('vector_weight', types.double, (c) => c.notNull().defaultTo(0.5))
    .execute();
  await db.schema
    .alterTable('datastore')
    .addColumn('keyword_weight', types.double, (c) => c.notNull().defaultTo(1))
    .execute();
  // Bumped whenever the datastore's chunks change, so in-process vector indexes know to catch up.
  await db.schema
    .alterTable('datastore')
    .addColumn('content_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('datasource')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspace.id').onDelete('cascade'))
    .addColumn('datastore_id', 'text', (c) => c.notNull().references('datastore.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('custom_id', 'text')
    .addColumn('group_id', 'text')
    .addColumn('config', 'text', (c) => c.notNull())
    .addColumn('file_key', 'text')
    .addColumn('mime_type', 'text')
    .addColumn('size_bytes', types.bigint)
    .addColumn('error', 'text')
    .addColumn('progress', types.double, (c) => c.notNull())
    .addColumn('nb_chunks', 'integer', (c) => c.notNull())
    .addColumn('text_size', 'integer', (c) => c.notNull())
    .addColumn('total_pages', 'integer')
    .addColumn('generation', 'integer', (c) => c.notNull())
    .addColumn('last_synch', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('datasource_datastore').on('datasource').columns(['datastore_id', 'created_at']).execute();
  await db.schema.createIndex('datasource_workspace').on('datasource').columns(['workspace_id', 'status']).execute();

  await db.schema
    .createTable('chunk')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('datastore_id', 'text', (c) => c.notNull())
    .addColumn('datasource_id', 'text', (c) => c.notNull().references('datasource.id').onDelete('cascade'))
    .addColumn('custom_id', 'text')
    .addColumn('ordinal', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('page_number', 'integer')
    .addColumn('tokens', 'integer', (c) => c.notNull())
    .addColumn('dimensions', 'integer', (c) => c.notNull())
    .addColumn('embedding', types.vector, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('chunk_datasource').on('chunk').columns(['datasource_id', 'ordinal']).unique().execute();
  await db.schema.createIndex('chunk_datastore').on('chunk').column('datastore_id').execute();

  await db.schema
    .createTable('job')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('job_ready').on('job').columns(['status', 'run_at']).execute();

  await db.schema
    .createTable('blob_part')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('part', 'integer', (c) => c.notNull())
    .addColumn('data', types.blob, (c) => c.notNull())
    .addPrimaryKeyConstraint('blob_part_pk', ['key', 'part'])
    .execute();

  await createKeywordIndex(db, types);
}

/** Keyword search over chunk text, kept in step with the chunk rows inside the same transactions. */
async function createKeywordIndex(db: Kysely<unknown>, types: DialectTypes): Promise<void> {
  if (types.keywordIndex === 'fts5') {
    await sql`CREATE VIRTUAL TABLE chunk_fts USING fts5(text, content='chunk', content_rowid='rowid', tokenize='porter unicode61 remove_diacritics 2')`.execute(
      db,
    );
    await sql`CREATE TRIGGER chunk_fts_insert AFTER INSERT ON chunk BEGIN
      INSERT INTO chunk_fts(rowid, text) VALUES (new.rowid, new.text); END`.execute(db);
    await sql`CREATE TRIGGER chunk_fts_delete AFTER DELETE ON chunk BEGIN
      INSERT INTO chunk_fts(chunk_fts, rowid, text) VALUES ('delete', old.rowid, old.text); END`.execute(db);
    return;
  }
  await sql`ALTER TABLE chunk ADD COLUMN text_search tsvector GENERATED ALWAYS AS (to_tsvector('english', text)) STORED`.execute(db);
  await sql`CREATE INDEX chunk_text_search ON chunk USING gin (text_search)`.execute(db);
}
