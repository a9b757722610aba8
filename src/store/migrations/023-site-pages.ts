import type { Kysely } from 'kysely';

/**
 * Website datasources (`web_site`): each page of a site is a datasource of its own whose `group_id` is the
 * site's id, read back as a group at every crawl and when the site is deleted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('datasource_group').on('datasource').columns(['workspace_id', 'group_id']).execute();
}
