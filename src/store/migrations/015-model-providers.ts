import type { Kysely } from 'kysely';

/**
 * Model providers a workspace connects from the dashboard, and which provider model serves each model name.
 * The API key column holds only the sealed key (AES-256-GCM under a key kept outside the database).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('model_provider')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspace.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('base_url', 'text')
    .addColumn('sealed_api_key', 'text')
    .addColumn('api_key_hint', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('model_provider_workspace').on('model_provider').columns(['workspace_id', 'created_at']).execute();

  await db.schema
    .createTable('model_route')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspace.id').onDelete('cascade'))
    .addColumn('model_name', 'text', (c) => c.notNull())
    // A provider's routes go with it: their names fall back to the operator's configuration.
    .addColumn('provider_id', 'text', (c) => c.notNull().references('model_provider.id').onDelete('cascade'))
    .addColumn('provider_model', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('model_route_pk', ['workspace_id', 'model_name'])
    .execute();
  await db.schema.createIndex('model_route_provider').on('model_route').column('provider_id').execute();
}
