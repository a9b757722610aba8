import { sql, type Kysely } from 'kysely';

/**
 * The id a channel's vendor gives a message that arrives from outside (an e-mail's Message-ID, a messenger's
 * message id); null for the rest. Vendors deliver again when unsure (a webhook retried), so it is unique per
 * conversation: a message received twice is stored once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('message').addColumn('channel_message_id', 'text').execute();
  await sql`create unique index message_channel_message on message (workspace_id, conversation_id, channel_message_id) where channel_message_id is not null`.execute(
    db,
  );
}
