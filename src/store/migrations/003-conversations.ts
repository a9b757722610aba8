import type { Kysely } from 'kysely';

/**
 * Conversations with their messages, the visitors and contacts taking part, and the outbox of domain
 * events written in the same transactions as the changes they report. Booleans are integers 0/1 and
 * JSON is text in both dialects, so one code path reads them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('contact')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspace.id').onDelete('cascade'))
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('email', 'text')
    .addColumn('phone_number', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // One contact per e-mail (NULLs never collide), the target of the contact upsert.
  await db.schema.createIndex('contact_email').on('contact').columns(['workspace_id', 'email']).unique().execute();

  await db.schema
    .createTable('visitor')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspace.id').onDelete('cascade'))
    .addColumn('contact_id', 'text', (c) => c.references('contact.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('conversation')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspace.id').onDelete('cascade'))
    // The conversation outlives its agent.
    .addColumn('agent_id', 'text', (c) => c.references('agent.id').onDelete('set null'))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('channel_external_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('is_ai_enabled', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('visitor_id', 'text', (c) => c.references('visitor.id').onDelete('set null'))
    .addColumn('contact_id', 'text', (c) => c.references('contact.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // The list's order and keyset (updated_at desc, id desc), then its filters.
  await db.schema.createIndex('conversation_activity').on('conversation').columns(['workspace_id', 'updated_at', 'id']).execute();
  await db.schema.createIndex('conversation_agent').on('conversation').column('agent_id').execute();
  await db.schema.createIndex('conversation_channel').on('conversation').columns(['workspace_id', 'channel']).execute();
  await db.schema.createIndex('conversation_channel_external').on('conversation').columns(['workspace_id', 'channel_external_id']).execute();

  await db.schema
    .createTable('message')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('conversation.id').onDelete('cascade'))
    .addColumn('from', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('sources', 'text', (c) => c.notNull())
    .addColumn('eval', 'text')
    .addColumn('read', 'integer', (c) => c.notNull())
    .addColumn('attachments', 'text', (c) => c.notNull())
    .addColumn('usage', 'text')
    .addColumn('model', 'text')
    .addColumn('visitor_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('message_conversation').on('message').columns(['conversation_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('event_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspace.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('dispatched_at', 'text')
    .execute();
  await db.schema.createIndex('event_outbox_pending').on('event_outbox').columns(['dispatched_at', 'created_at']).execute();
}
