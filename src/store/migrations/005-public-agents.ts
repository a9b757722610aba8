import { sql, type Kysely } from 'kysely';
import type { DialectTypes } from './dialect-types.js';

/**
 * Hardening for callers without a key:
 * - conversation and visitor ids are unique per workspace, not across all of them: clients with a key
 *   make ids up, and one workspace's "order-1001" must neither collide with nor reveal another's.
 *   The primary keys become (workspace_id, id) and messages point at their conversation by both.
 * - the secret visitor tokens are signed with, shared by every process on the store;
 * - the web origins allowed to call an agent's public endpoints.
 */
export async function up(db: Kysely<unknown>, types: DialectTypes): Promise<void> {
  if (types.changesPrimaryKeysInPlace) await rekeyInPlace(db);
  else await rebuildWithWorkspaceKeys(db);
  await db.schema.createIndex('conversation_id').on('conversation').column('id').execute();
  await db.schema.createIndex('visitor_id').on('visitor').column('id').execute();

  await db.schema
    .createTable('instance_secret')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .alterTable('agent')
    .addColumn('allowed_origins', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}

/** PostgreSQL swaps the keys and the message foreign key with ALTER TABLE. */
async function rekeyInPlace(db: Kysely<unknown>): Promise<void> {
  await sql`alter table message drop constraint message_conversation_id_fkey`.execute(db);
  // A visitor row is never deleted on its own (only with its workspace), so the link needs no constraint.
  await sql`alter table conversation drop constraint conversation_visitor_id_fkey`.execute(db);
  await sql`alter table conversation drop constraint conversation_pkey, add primary key (workspace_id, id)`.execute(db);
  await sql`alter table visitor drop constraint visitor_pkey, add primary key (workspace_id, id)`.execute(db);
  await sql`
    alter table message add constraint message_conversation_fkey foreign key (workspace_id, conversation_id)
    references conversation (workspace_id, id) on delete cascade`.execute(db);
  await sql`drop index message_conversation`.execute(db);
  await createMessageIndex(db);
}

/**
 * SQLite cannot change a primary key, so the three tables are rebuilt (the procedure its manual gives for
 * ALTER TABLE): foreign keys off, new tables filled from the old, old dropped, new renamed, the foreign
 * keys checked, all in one transaction.
 */
async function rebuildWithWorkspaceKeys(db: Kysely<unknown>): Promise<void> {
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await sql`
        create table visitor_rekeyed (
          id text not null,
          workspace_id text not null references workspace (id) on delete cascade,
          contact_id text references contact (id) on delete set null,
          created_at text not null,
          updated_at text not null,
          primary key (workspace_id, id)
        )`.execute(trx);
      await copyAndReplace(trx, 'visitor', 'visitor_rekeyed', ['id', 'workspace_id', 'contact_id', 'created_at', 'updated_at']);

      await sql`
        create table conversation_rekeyed (
          id text not null,
          workspace_id text not null references workspace (id) on delete cascade,
          agent_id text references agent (id) on delete set null,
          channel text not null,
          channel_external_id text,
          status text not null,
          is_ai_enabled integer not null,
          title text not null,
          metadata text not null,
          visitor_id text,
          contact_id text references contact (id) on delete set null,
          created_at text not null,
          updated_at text not null,
          primary key (workspace_id, id)
        )`.execute(trx);
      await copyAndReplace(trx, 'conversation', 'conversation_rekeyed', [
        'id',
        'workspace_id',
        'agent_id',
        'channel',
        'channel_external_id',
        'status',
        'is_ai_enabled',
        'title',
        'metadata',
        'visitor_id',
        'contact_id',
        'created_at',
        'updated_at',
      ]);
      await trx.schema.createIndex('conversation_activity').on('conversation').columns(['workspace_id', 'updated_at', 'id']).execute();
      await trx.schema.createIndex('conversation_agent').on('conversation').column('agent_id').execute();
      await trx.schema.createIndex('conversation_channel').on('conversation').columns(['workspace_id', 'channel']).execute();
      await trx.schema.createIndex('conversation_channel_external').on('conversation').columns(['workspace_id', 'channel_external_id']).execute();

      await sql`
        create table message_rekeyed (
          id text primary key,
          workspace_id text not null,
          conversation_id text not null,
          "from" text not null,
          text text not null,
          sources text not null,
          eval text,
          read integer not null,
          attachments text not null,
          usage text,
          model text,
          visitor_id text,
          created_at text not null,
          foreign key (workspace_id, conversation_id) references conversation (workspace_id, id) on delete cascade
        )`.execute(trx);
      await copyAndReplace(trx, 'message', 'message_rekeyed', [
        'id',
        'workspace_id',
        'conversation_id',
        'from',
        'text',
        'sources',
        'eval',
        'read',
        'attachments',
        'usage',
        'model',
        'visitor_id',
        'created_at',
      ]);
      await createMessageIndex(trx);

      const broken = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.rows.length > 0) throw new Error(`conversation re-keying left ${broken.rows.length} broken references`);
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

async function copyAndReplace(db: Kysely<unknown>, table: string, rebuilt: string, columns: readonly string[]): Promise<void> {
  const list = sql.join(columns.map((column) => sql.ref(column)));
  await sql`insert into ${sql.table(rebuilt)} (${list}) select ${list} from ${sql.table(table)}`.execute(db);
  await sql`drop table ${sql.table(table)}`.execute(db);
  await sql`alter table ${sql.table(rebuilt)} rename to ${sql.table(table)}`.execute(db);
}

/** A conversation's messages in order, within its workspace. */
function createMessageIndex(db: Kysely<unknown>): Promise<void> {
  return db.schema.createIndex('message_conversation').on('message').columns(['workspace_id', 'conversation_id', 'created_at', 'id']).execute();
}
