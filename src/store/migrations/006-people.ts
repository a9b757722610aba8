import { sql, type Kysely } from 'kysely';

/**
 * People who sign in: a user (e-mail, name, password hash) is a member of one or more workspaces. The
 * members recorded so far (e-mail and name per workspace) become users without a password, members by
 * `user_id`, so nobody is lost; each can set a password through an invitation link. Also the server-side
 * sessions of the dashboard and the single-use links (setup, invitations, password resets), both stored
 * as hashes only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('app_user')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // One user per distinct member e-mail (the oldest row's name wins); ids derived from the e-mail's first member.
  await sql`
    insert into app_user (id, email, name, password_hash, created_at, updated_at)
    select 'usr_' || m.id, m.email, m.name, null, m.created_at, m.created_at
    from member m
    where m.id = (select m2.id from member m2 where m2.email = m.email order by m2.created_at, m2.id limit 1)`.execute(db);
  await db.schema
    .alterTable('member')
    .addColumn('user_id', 'text', (c) => c.references('app_user.id').onDelete('cascade'))
    .execute();
  await sql`update member set user_id = (select u.id from app_user u where u.email = member.email)`.execute(db);
  // Invited until the person accepts (sets a password or signs in once); everyone migrated is active.
  await db.schema.alterTable('member').addColumn('accepted_at', 'text').execute();
  await sql`update member set accepted_at = created_at`.execute(db);
  await db.schema.createIndex('member_user').on('member').columns(['workspace_id', 'user_id']).unique().execute();
  await db.schema.createIndex('member_of_user').on('member').column('user_id').execute();

  await db.schema
    .createTable('user_session')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('user_session_user').on('user_session').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('one_time_link')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('app_user.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.references('workspace.id').onDelete('cascade'))
    .addColumn('member_id', 'text', (c) => c.references('member.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
}
