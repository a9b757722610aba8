import type { Kysely } from 'kysely';

/**
 * What events reach: workspace members (the administrators notified by e-mail), webhook endpoints,
 * and one delivery row per event and destination with the log of its attempts. A delivery's id is
 * derived from its event and destination, so handing an event on twice cannot create a second one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('workspace')
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();

  await db.schema
    .createTable('member')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspace.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('member_email').on('member').columns(['workspace_id', 'email']).unique().execute();

  await db.schema
    .createTable('webhook_endpoint')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspace.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_endpoint_workspace').on('webhook_endpoint').columns(['workspace_id', 'created_at']).execute();

  await db.schema
    .createTable('delivery')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspace.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    // Deliveries go with their endpoint: a deleted endpoint's pending retries find nothing and stop.
    .addColumn('endpoint_id', 'text', (c) => c.references('webhook_endpoint.id').onDelete('cascade'))
    .addColumn('recipients', 'text')
    .addColumn('replay_of', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempt_count', 'integer', (c) => c.notNull())
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('next_attempt_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema.createIndex('delivery_endpoint').on('delivery').columns(['endpoint_id', 'created_at']).execute();
  await db.schema.createIndex('delivery_channel').on('delivery').columns(['workspace_id', 'channel', 'created_at']).execute();

  await db.schema
    .createTable('delivery_attempt')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('delivery.id').onDelete('cascade'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('response_excerpt', 'text')
    .execute();
  await db.schema.createIndex('delivery_attempt_delivery').on('delivery_attempt').columns(['delivery_id', 'attempt']).execute();
}
