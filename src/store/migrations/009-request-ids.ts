import type { Kysely } from 'kysely';

/** The API request that enqueued a job or wrote an event, so the work it caused can be found in the logs. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('job').addColumn('request_id', 'text').execute();
  await db.schema.alterTable('event_outbox').addColumn('request_id', 'text').execute();
}
