import type { Kysely } from 'kysely';

/**
 * What the inbox's team works with beside the messages: private notes (a message only members see), saved
 * replies (canned answers a member inserts by shortcut), labels on conversations, and what the widget told
 * of the page a conversation started on (the visitor's context, JSON, null when nothing was sent).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('message')
    .addColumn('private', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('conversation').addColumn('visitor_context', 'text').execute();

  await db.schema
    .createTable('saved_reply')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspace.id').onDelete('cascade'))
    .addColumn('shortcut', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('saved_reply_shortcut').unique().on('saved_reply').columns(['workspace_id', 'shortcut']).execute();

  await db.schema
    .createTable('label')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspace.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('label_name').unique().on('label').columns(['workspace_id', 'name']).execute();

  await db.schema
    .createTable('conversation_label')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    // A label deleted leaves the conversations it was on.
    .addColumn('label_id', 'text', (c) => c.notNull().references('label.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('conversation_label_pk', ['workspace_id', 'conversation_id', 'label_id'])
    .addForeignKeyConstraint('conversation_label_conversation', ['workspace_id', 'conversation_id'], 'conversation', ['workspace_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();
  await db.schema.createIndex('conversation_label_label').on('conversation_label').columns(['label_id']).execute();
}
