import type { Kysely } from 'kysely';
import type { DialectTypes } from './dialect-types.js';

/** Workspaces, their API keys, agents, datastores and the agent ↔ datastore links. */
export async function up(db: Kysely<unknown>, types: DialectTypes): Promise<void> {
  await db.schema
    .createTable('workspace')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_key')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspace.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('api_key_workspace').on('api_key').column('workspace_id').execute();

  await db.schema
    .createTable('datastore')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspace.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('datastore_workspace').on('datastore').columns(['workspace_id', 'created_at']).execute();

  await db.schema
    .createTable('agent')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspace.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('model_name', 'text', (c) => c.notNull())
    .addColumn('temperature', types.double, (c) => c.notNull())
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('system_prompt', 'text')
    .addColumn('user_prompt', 'text', (c) => c.notNull())
    .addColumn('icon_url', 'text')
    .addColumn('handle', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('agent_workspace').on('agent').columns(['workspace_id', 'created_at']).execute();

  await db.schema
    .createTable('agent_datastore')
    .addColumn('agent_id', 'text', (c) => c.notNull().references('agent.id').onDelete('cascade'))
    .addColumn('datastore_id', 'text', (c) => c.notNull().references('datastore.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('agent_datastore_pk', ['agent_id', 'datastore_id'])
    .execute();
  await db.schema.createIndex('agent_datastore_datastore').on('agent_datastore').column('datastore_id').execute();
}
