import type { Kysely } from 'kysely';

/** An agent answer that stopped before its end (the caller left, the model failed, the server stopped). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('message')
    .addColumn('interrupted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
