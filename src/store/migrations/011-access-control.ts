import type { Kysely } from 'kysely';

/**
 * Revocation and who made a key. `app_user.auth_generation` is the generation a person's access tokens must
 * carry: raising it (sign-out, a password change or reset, a removal or a new role) ends every token issued
 * before, in every process. `api_key.created_by` is the person who made a key (null: the operator, at the
 * first start or with `parley keys create`); a key has its maker's rights, no more.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('app_user')
    .addColumn('auth_generation', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('api_key').addColumn('created_by', 'text').execute();
}
