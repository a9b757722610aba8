import type { Kysely } from 'kysely';

/** Each agent's chat widget settings: a JSON object of what differs from the defaults. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('agent')
    .addColumn('widget_settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
}
