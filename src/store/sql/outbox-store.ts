import type { Kysely, Selectable } from 'kysely';
import type { Database, EventOutboxTable } from '../schema.js';
import type { NewOutboxEvent, OutboxEventRecord, OutboxStore } from '../ports/outbox-store.js';
import type { SqlConnection } from './sql-dialect.js';
import { currentRequestId } from '../../observability/request-context.js';

/** The channel PostgreSQL's outbox trigger announces events on (migration 007). */
const EVENTS_CHANNEL = 'parley_events';

const toRecord = (row: Selectable<EventOutboxTable>): OutboxEventRecord => ({
  seq: Number(row.seq),
  id: row.id,
  workspaceId: row.workspace_id,
  type: row.type,
  payload: JSON.parse(row.payload) as Record<string, unknown>,
  createdAt: row.created_at,
  dispatchedAt: row.dispatched_at,
  requestId: row.request_id,
});

/**
 * Writes an event; shared so a change can record its event inside its own transaction. Write it last: on
 * PostgreSQL it takes the workspace's event lock until commit (migration 007), so nothing else should wait
 * on a lock while holding it.
 */
export async function insertOutboxEvent(db: Kysely<Database>, event: NewOutboxEvent, at: string): Promise<void> {
  await db
    .insertInto('event_outbox')
    .values({
      id: event.id,
      workspace_id: event.workspaceId,
      type: event.type,
      payload: JSON.stringify(event.payload),
      created_at: at,
      dispatched_at: null,
      request_id: currentRequestId(),
    })
    .execute();
}

export class SqlOutboxStore implements OutboxStore {
  readonly watch?: OutboxStore['watch'];

  constructor(
    private readonly db: Kysely<Database>,
    listen?: SqlConnection['listen'],
  ) {
    if (listen !== undefined) this.watch = (listener) => listen(EVENTS_CHANNEL, listener);
  }

  async after(workspaceId: string, seq: number, limit: number): Promise<OutboxEventRecord[]> {
    const rows = await this.db
      .selectFrom('event_outbox')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('seq', '>', seq)
      .orderBy('seq')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  }

  async latest(workspaceId: string, type: string, limit: number): Promise<OutboxEventRecord[]> {
    const rows = await this.db
      .selectFrom('event_outbox')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('type', '=', type)
      .orderBy('seq', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  }

  async positionOf(workspaceId: string, eventId: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('event_outbox')
      .select('seq')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', eventId)
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.seq);
  }

  async head(workspaceId: string): Promise<number> {
    const row = await this.db
      .selectFrom('event_outbox')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return Number(row?.seq ?? 0);
  }

  async list(filter: { workspaceId?: string; pending?: boolean; limit?: number }): Promise<OutboxEventRecord[]> {
    let query = this.db.selectFrom('event_outbox').selectAll().orderBy('created_at').orderBy('id');
    if (filter.workspaceId !== undefined) query = query.where('workspace_id', '=', filter.workspaceId);
    if (filter.pending !== undefined) query = query.where('dispatched_at', filter.pending ? 'is' : 'is not', null);
    if (filter.limit !== undefined) query = query.limit(filter.limit);
    return (await query.execute()).map(toRecord);
  }

  async pending(): Promise<{ count: number; oldestCreatedAt: string | null }> {
    const row = await this.db
      .selectFrom('event_outbox')
      .select(({ fn }) => [fn.countAll<number | string>().as('count'), fn.min('created_at').as('oldest')])
      .where('dispatched_at', 'is', null)
      .executeTakeFirstOrThrow();
    return { count: Number(row.count), oldestCreatedAt: row.oldest ?? null };
  }

  async markDispatched(id: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('event_outbox')
      .set({ dispatched_at: at })
      .where('id', '=', id)
      .where('dispatched_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async deleteDispatchedBefore(cutoff: string): Promise<number> {
    const result = await this.db.deleteFrom('event_outbox').where('dispatched_at', '<', cutoff).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
