import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.js';
import type { DeliveryAttemptTable, DeliveryTable } from '../integration-tables.js';
import type {
  DeliveryAttemptRecord,
  DeliveryChannel,
  DeliveryOutcome,
  DeliveryRecord,
  DeliveryStatus,
  DeliveryStore,
  NewDelivery,
} from '../ports/delivery-store.js';
import type { NewJob } from '../ports/job-store.js';
import { insertJob } from './job-store.js';
import { OwnedRows } from './owned-rows.js';

const toAttempt = (row: Selectable<DeliveryAttemptTable>): DeliveryAttemptRecord => ({
  attempt: row.attempt,
  startedAt: row.started_at,
  durationMs: row.duration_ms,
  statusCode: row.status_code,
  error: row.error,
  responseExcerpt: row.response_excerpt,
});

const toRecord = (row: Selectable<DeliveryTable>, attempts: DeliveryAttemptRecord[]): DeliveryRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  eventId: row.event_id,
  eventType: row.event_type,
  channel: row.channel as DeliveryChannel,
  endpointId: row.endpoint_id,
  recipients: row.recipients === null ? null : (JSON.parse(row.recipients) as string[]),
  replayOf: row.replay_of,
  body: row.body,
  status: row.status as DeliveryStatus,
  attemptCount: row.attempt_count,
  lastStatusCode: row.last_status_code,
  lastError: row.last_error,
  nextAttemptAt: row.next_attempt_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  completedAt: row.completed_at,
  attempts,
});

const outcomeColumns = (outcome: DeliveryOutcome) => ({
  status: outcome.status,
  next_attempt_at: outcome.nextAttemptAt,
  updated_at: outcome.at,
  completed_at: outcome.status === 'pending' ? null : outcome.at,
});

export class SqlDeliveryStore implements DeliveryStore {
  readonly #rows: OwnedRows<'delivery'>;

  constructor(private readonly db: Kysely<Database>) {
    this.#rows = new OwnedRows(db, 'delivery');
  }

  async createWithJob(delivery: NewDelivery, job: NewJob): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('delivery')
        .values({
          id: delivery.id,
          workspace_id: delivery.workspaceId,
          event_id: delivery.eventId,
          event_type: delivery.eventType,
          channel: delivery.channel,
          endpoint_id: delivery.endpointId,
          recipients: delivery.recipients === null ? null : JSON.stringify(delivery.recipients),
          replay_of: delivery.replayOf,
          body: delivery.body,
          status: 'pending',
          attempt_count: 0,
          last_status_code: null,
          last_error: null,
          next_attempt_at: job.runAt ?? delivery.createdAt,
          created_at: delivery.createdAt,
          updated_at: delivery.createdAt,
          completed_at: null,
        })
        .onConflict((conflict) => conflict.column('id').doNothing())
        .executeTakeFirst();
      if ((inserted.numInsertedOrUpdatedRows ?? 0n) === 0n) return false;
      await insertJob(trx, job, delivery.createdAt);
      return true;
    });
  }

  async find(workspaceId: string, id: string): Promise<DeliveryRecord | undefined> {
    const row = await this.#rows.find(workspaceId, id);
    return row && (await this.withAttempts([row]))[0];
  }

  async list(workspaceId: string, filter: { endpointId?: string; channel?: DeliveryChannel; limit: number }): Promise<DeliveryRecord[]> {
    let query = this.db.selectFrom('delivery').selectAll().where('workspace_id', '=', workspaceId);
    if (filter.endpointId !== undefined) query = query.where('endpoint_id', '=', filter.endpointId);
    if (filter.channel !== undefined) query = query.where('channel', '=', filter.channel);
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
    return this.withAttempts(rows);
  }

  async consecutiveFailures(workspaceId: string): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('delivery as failed')
      .select(['failed.endpoint_id', (eb) => eb.fn.countAll().as('failures')])
      .where('failed.workspace_id', '=', workspaceId)
      .where('failed.channel', '=', 'webhook')
      .where('failed.attempt_count', '>', 0)
      .where('failed.status', '!=', 'succeeded')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('delivery as later')
              .select('later.id')
              .whereRef('later.workspace_id', '=', 'failed.workspace_id')
              .whereRef('later.endpoint_id', '=', 'failed.endpoint_id')
              .where('later.status', '=', 'succeeded')
              // Newer in the log's order: created later, or at the same time with a greater id.
              .where((later) =>
                later.or([
                  later('later.created_at', '>', later.ref('failed.created_at')),
                  later.and([later('later.created_at', '=', later.ref('failed.created_at')), later('later.id', '>', later.ref('failed.id'))]),
                ]),
              ),
          ),
        ),
      )
      .groupBy('failed.endpoint_id')
      .execute();
    return new Map(rows.flatMap((row) => (row.endpoint_id === null ? [] : [[row.endpoint_id, Number(row.failures)] as const])));
  }

  async recordAttempt(workspaceId: string, id: string, attempt: DeliveryAttemptRecord, outcome: DeliveryOutcome): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('delivery')
        .set((eb) => ({
          ...outcomeColumns(outcome),
          attempt_count: eb('attempt_count', '+', 1),
          last_status_code: attempt.statusCode,
          last_error: attempt.error,
        }))
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n) return;
      await trx
        .insertInto('delivery_attempt')
        .values({
          id: randomUUID(),
          delivery_id: id,
          attempt: attempt.attempt,
          started_at: attempt.startedAt,
          duration_ms: attempt.durationMs,
          status_code: attempt.statusCode,
          error: attempt.error,
          response_excerpt: attempt.responseExcerpt,
        })
        .execute();
    });
  }

  async settle(workspaceId: string, id: string, outcome: DeliveryOutcome, error?: string): Promise<void> {
    await this.db
      .updateTable('delivery')
      .set({ ...outcomeColumns(outcome), last_error: error })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  }

  private async withAttempts(rows: Selectable<DeliveryTable>[]): Promise<DeliveryRecord[]> {
    if (rows.length === 0) return [];
    const attempts = await this.db
      .selectFrom('delivery_attempt')
      .selectAll()
      .where(
        'delivery_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('attempt')
      .orderBy('started_at')
      .execute();
    const byDelivery = new Map<string, DeliveryAttemptRecord[]>(rows.map((row) => [row.id, []]));
    for (const attempt of attempts) byDelivery.get(attempt.delivery_id)?.push(toAttempt(attempt));
    return rows.map((row) => toRecord(row, byDelivery.get(row.id) ?? []));
  }
}
