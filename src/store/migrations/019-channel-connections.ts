import type { Kysely } from 'kysely';

/**
 * Agents' connections to the channels people write from (a mailbox, a Telegram bot). Settings are plain
 * JSON without secrets; the secrets (a bot token, passwords) are one sealed JSON value (AES-256-GCM under a
 * key kept outside the database) with a hint of each beside it. One connection per agent and channel.
 * A message sent out through a channel records whether it went out (`delivery_state`) and why not.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('channel_connection')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspace.id').onDelete('cascade'))
    .addColumn('agent_id', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('sealed_secrets', 'text', (c) => c.notNull())
    .addColumn('secret_hints', 'text', (c) => c.notNull())
    // Where a pulling connection's next pass starts (a Telegram update offset, an IMAP UID).
    .addColumn('cursor', 'text')
    .addColumn('last_inbound_at', 'text')
    .addColumn('last_outbound_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('channel_connection_agent')
    .on('channel_connection')
    .columns(['workspace_id', 'agent_id', 'channel'])
    .unique()
    .execute();

  await db.schema.alterTable('message').addColumn('delivery_state', 'text').execute();
  await db.schema.alterTable('message').addColumn('delivery_error', 'text').execute();
}
