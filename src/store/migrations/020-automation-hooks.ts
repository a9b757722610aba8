import type { Kysely } from 'kysely';

/**
 * Who made a webhook endpoint: a member (`webhooks`: the Webhooks page, `POST /webhooks`) or an automation
 * platform subscribing through REST hooks (`automation`: Zapier's `POST /hooks`), whose endpoints it removes
 * itself and which go when their target answers 410 Gone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('webhook_endpoint')
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('webhooks'))
    .execute();
}
