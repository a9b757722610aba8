import type { Kysely } from 'kysely';

/**
 * What a system message tells, by kind and parameters (JSON, null for other messages): the text stays the
 * English one the team reads, the chat widget words a known kind in the visitor's language.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('message').addColumn('notice', 'text').execute();
}
