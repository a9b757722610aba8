import { sql, type Kysely } from 'kysely';
import type { DialectTypes } from './dialect-types.js';

/**
 * What the team's own tests are, and how conversations went:
 * - `conversation.playground`: 1 when a signed-in member asked through the dashboard's playground, so the
 *   inbox and analytics can leave the team's tests out (API clients send channel `dashboard` too: the
 *   channel alone cannot tell);
 * - `conversation_status_change`: every status a conversation took, and when, written with the change, so
 *   analytics can count the conversations that were ever HUMAN_REQUESTED, not only those still waiting.
 *   Conversations older than this table get one row: their status now, at their last activity.
 */
export async function up(db: Kysely<unknown>, types: DialectTypes): Promise<void> {
  await db.schema
    .alterTable('conversation')
    .addColumn('playground', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('conversation_status_change')
    .addColumn('id', types.serial, (c) => types.neverReused(c.primaryKey()))
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('changed_at', 'text', (c) => c.notNull())
    .addForeignKeyConstraint(
      'conversation_status_change_conversation',
      ['workspace_id', 'conversation_id'],
      'conversation',
      ['workspace_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('conversation_status_change_of')
    .on('conversation_status_change')
    .columns(['workspace_id', 'conversation_id', 'status'])
    .execute();
  await sql`
    insert into conversation_status_change (workspace_id, conversation_id, status, changed_at)
    select workspace_id, id, status, updated_at from conversation`.execute(db);
}
