import type { Kysely } from 'kysely';

/**
 * Whether an agent goes on answering after the visitor asked for a person (status HUMAN_REQUESTED) until a
 * member takes the conversation over; 0: it goes quiet at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('agent')
    .addColumn('keep_answering_until_taken_over', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
