import { sql, type Kysely } from 'kysely';
import type { DialectTypes } from './dialect-types.js';

/**
 * The inbox:
 * - every outbox event gets `seq`, a number that grows in the order events commit within a workspace, so a
 *   stream resumes after an event without losing one that committed late. SQLite has one writer, so its
 *   AUTOINCREMENT order is commit order (the table is rebuilt for it). PostgreSQL commits concurrent
 *   transactions in any order: a trigger takes a per-workspace transaction lock before drawing the number,
 *   so a later number commits later, and announces the event with NOTIFY (delivered at commit) to the
 *   streams of every process;
 * - who a conversation is assigned to, and which member wrote a message;
 * - knowledge gaps: the questions an agent could not answer from its datastores.
 */
export async function up(db: Kysely<unknown>, types: DialectTypes): Promise<void> {
  if (types.changesPrimaryKeysInPlace) await sequenceInPlace(db);
  else await rebuildWithSequence(db);
  await db.schema.createIndex('event_outbox_stream').on('event_outbox').columns(['workspace_id', 'seq']).execute();

  await db.schema
    .alterTable('conversation')
    .addColumn('assignee_id', 'text', (c) => c.references('member.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('conversation_assignee').on('conversation').columns(['workspace_id', 'assignee_id']).execute();
  // No foreign key: a member who leaves keeps their messages (shown without a name).
  await db.schema.alterTable('message').addColumn('member_id', 'text').execute();
  // What the inbox counts: visitors' messages nobody has read yet (few, so a partial index stays small).
  await sql`create index message_unread on message (workspace_id, conversation_id) where read = 0`.execute(db);

  await db.schema
    .createTable('knowledge_gap')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspace.id').onDelete('cascade'))
    .addColumn('agent_id', 'text', (c) => c.references('agent.id').onDelete('set null'))
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('question_key', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('best_score', types.double)
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('knowledge_gap_time').on('knowledge_gap').columns(['workspace_id', 'created_at']).execute();
  await db.schema.createIndex('knowledge_gap_key').on('knowledge_gap').columns(['workspace_id', 'question_key']).execute();
}

async function sequenceInPlace(db: Kysely<unknown>): Promise<void> {
  await sql`create sequence event_outbox_seq`.execute(db);
  await sql`alter table event_outbox add column seq bigint`.execute(db);
  await sql`
    update event_outbox set seq = ordered.n
    from (select id, row_number() over (order by created_at, id) as n from event_outbox) ordered
    where ordered.id = event_outbox.id`.execute(db);
  await sql`select setval('event_outbox_seq', coalesce((select max(seq) from event_outbox), 0) + 1, false)`.execute(db);
  await sql`
    create function event_outbox_in_commit_order() returns trigger language plpgsql as $$
    begin
      perform pg_advisory_xact_lock(hashtext('parley.event_outbox'), hashtext(new.workspace_id));
      new.seq := nextval('event_outbox_seq');
      perform pg_notify('parley_events', new.workspace_id);
      return new;
    end $$`.execute(db);
  await sql`
    create trigger event_outbox_in_commit_order before insert on event_outbox
    for each row execute function event_outbox_in_commit_order()`.execute(db);
  await sql`alter table event_outbox alter column seq set not null`.execute(db);
}

/** SQLite adds an AUTOINCREMENT key only by rebuilding the table (its manual's ALTER TABLE procedure). */
async function rebuildWithSequence(db: Kysely<unknown>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`
      create table event_outbox_sequenced (
        seq integer primary key autoincrement,
        id text not null unique,
        workspace_id text not null references workspace (id) on delete cascade,
        type text not null,
        payload text not null,
        created_at text not null,
        dispatched_at text
      )`.execute(trx);
    await sql`
      insert into event_outbox_sequenced (id, workspace_id, type, payload, created_at, dispatched_at)
      select id, workspace_id, type, payload, created_at, dispatched_at from event_outbox order by created_at, id`.execute(trx);
    await sql`drop table event_outbox`.execute(trx);
    await sql`alter table event_outbox_sequenced rename to event_outbox`.execute(trx);
    await trx.schema.createIndex('event_outbox_pending').on('event_outbox').columns(['dispatched_at', 'created_at']).execute();
  });
}
