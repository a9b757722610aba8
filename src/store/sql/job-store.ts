import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import type { Database, JobTable } from '../schema.js';
import type { ClaimOptions, JobQueueReading, JobRecord, JobStatus, JobStore, NewJob } from '../ports/job-store.js';
import { countWhen } from './count-when.js';
import { currentRequestId } from '../../observability/request-context.js';
import type { SqlConnection } from './sql-dialect.js';

const toRecord = (row: Selectable<JobTable>): JobRecord => ({
  id: row.id,
  kind: row.kind,
  workspaceId: row.workspace_id,
  payload: JSON.parse(row.payload) as Record<string, unknown>,
  status: row.status as JobStatus,
  attempts: row.attempts,
  maxAttempts: row.max_attempts,
  runAt: row.run_at,
  leaseOwner: row.lease_owner,
  leaseUntil: row.lease_until,
  lastError: row.last_error,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  requestId: row.request_id,
});

/** Inserts a job, naming the request it is done for; shared so other stores can enqueue inside their own transactions. */
export async function insertJob(db: Kysely<Database>, job: NewJob, at: string): Promise<void> {
  await db.insertInto('job').values(jobRow(job, at)).execute();
}

const jobRow = (job: NewJob, at: string) =>
  ({
    id: job.id,
    workspace_id: job.workspaceId,
    kind: job.kind,
    payload: JSON.stringify(job.payload),
    status: 'queued',
    attempts: 0,
    max_attempts: job.maxAttempts,
    run_at: job.runAt ?? at,
    lease_owner: null,
    lease_until: null,
    last_error: null,
    created_at: at,
    updated_at: at,
    request_id: currentRequestId(),
  }) as const;

export class SqlJobStore implements JobStore {
  constructor(private readonly connection: SqlConnection) {}

  private get db() {
    return this.connection.db;
  }

  async enqueue(job: NewJob): Promise<void> {
    await insertJob(this.db, job, new Date().toISOString());
  }

  async ensureQueued(job: NewJob): Promise<void> {
    const at = new Date().toISOString();
    const row = jobRow(job, at);
    await this.db
      .insertInto('job')
      .values(row)
      .onConflict((conflict) =>
        conflict
          .column('id')
          .doUpdateSet({ status: 'queued', attempts: 0, run_at: row.run_at, lease_owner: null, lease_until: null, last_error: null, updated_at: at })
          .where('job.status', 'in', ['done', 'failed']),
      )
      .execute();
  }

  async enqueueOnce(job: NewJob): Promise<void> {
    await this.db
      .insertInto('job')
      .values(jobRow(job, new Date().toISOString()))
      .onConflict((conflict) => conflict.column('id').doNothing())
      .execute();
  }

  async claim(
    owner: string,
    kinds: readonly string[],
    now: string,
    leaseUntil: string,
    { idleWorkspacesOnly = false }: ClaimOptions = {},
  ): Promise<JobRecord | undefined> {
    if (kinds.length === 0) return undefined;
    // The jobs of `kinds` running now in the candidate's workspace, in any process.
    const runningAlongside = (eb: ExpressionBuilder<Database, 'job'>) =>
      eb
        .selectFrom('job as busy')
        .whereRef('busy.workspace_id', '=', 'job.workspace_id')
        .where('busy.kind', 'in', [...kinds])
        .where('busy.status', '=', 'running')
        .where('busy.lease_until', '>=', now);
    let next = this.db
      .selectFrom('job')
      .select('id')
      .where('kind', 'in', [...kinds])
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', now)]),
          // A running job whose lease ran out belongs to a process that died: take it over.
          eb.and([eb('status', '=', 'running'), eb('lease_until', '<', now)]),
        ]),
      )
      // Fair across workspaces: the next job comes from the workspace with the fewest running, then the one due longest.
      .orderBy((eb) => runningAlongside(eb).select((inner) => inner.fn.countAll().as('running')))
      .orderBy('run_at')
      .orderBy('id')
      .limit(1);
    if (idleWorkspacesOnly) {
      next = next.where('workspace_id', 'is not', null).where((eb) => eb.not(eb.exists(runningAlongside(eb).select('busy.id'))));
    }
    // Several workers on PostgreSQL each skip the rows others are claiming; SQLite serialises writers.
    const rowLocks = this.connection.capabilities.supportsRowLocks;
    if (rowLocks) next = next.forUpdate().skipLocked();
    const claimNext = (db: Kysely<Database>) =>
      db
        .updateTable('job')
        .set((eb) => ({
          status: 'running',
          attempts: eb('attempts', '+', 1),
          lease_owner: owner,
          lease_until: leaseUntil,
          updated_at: now,
        }))
        .where('id', '=', next)
        .returningAll()
        .executeTakeFirst();
    // And PostgreSQL claims of the same kinds take turns (a lock held to the commit), so that each counts the
    // jobs the others have just claimed: two at once each saw a workspace with none running.
    const turn = `parley.job-claim:${[...kinds].sort().join(',')}`;
    const row = rowLocks
      ? await this.db.transaction().execute(async (trx) => {
          await sql`SELECT pg_advisory_xact_lock(hashtext(${turn}))`.execute(trx);
          return claimNext(trx);
        })
      : await claimNext(this.db);
    return row && toRecord(row);
  }

  async extendLease(id: string, owner: string, leaseUntil: string): Promise<boolean> {
    const result = await this.db
      .updateTable('job')
      .set({ lease_until: leaseUntil, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async complete(id: string, owner: string): Promise<void> {
    await this.finish(id, owner, { status: 'done' });
  }

  async retryLater(id: string, owner: string, error: string, runAt: string): Promise<void> {
    await this.finish(id, owner, { status: 'queued', last_error: error, run_at: runAt });
  }

  async fail(id: string, owner: string, error: string): Promise<void> {
    await this.finish(id, owner, { status: 'failed', last_error: error });
  }

  async release(id: string, owner: string): Promise<void> {
    await this.db
      .updateTable('job')
      .set((eb) => ({
        status: 'queued',
        attempts: eb('attempts', '-', 1),
        lease_owner: null,
        lease_until: null,
        updated_at: new Date().toISOString(),
      }))
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .execute();
  }

  async find(id: string): Promise<JobRecord | undefined> {
    const row = await this.db.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  async queueReadings(now: string): Promise<JobQueueReading[]> {
    const rows = await this.db
      .selectFrom('job')
      .select(({ fn, eb }) => [
        'kind',
        countWhen(eb('status', '=', 'queued')).as('queued'),
        countWhen(eb('status', '=', 'running')).as('running'),
        fn
          .min(
            eb
              .case()
              .when(eb('status', '=', 'queued').and('run_at', '<=', now))
              .then(eb.ref('run_at'))
              .end(),
          )
          .as('oldest_due_at'),
      ])
      .where('status', 'in', ['queued', 'running'])
      .groupBy('kind')
      .execute();
    return rows.map((row) => ({
      kind: row.kind,
      queued: Number(row.queued),
      running: Number(row.running),
      oldestDueAt: row.oldest_due_at ?? null,
    }));
  }

  async list(filter: { kind?: string; statuses?: readonly JobStatus[] }): Promise<JobRecord[]> {
    let query = this.db.selectFrom('job').selectAll().orderBy('created_at').orderBy('id');
    if (filter.kind !== undefined) query = query.where('kind', '=', filter.kind);
    if (filter.statuses !== undefined) query = query.where('status', 'in', [...filter.statuses]);
    return (await query.execute()).map(toRecord);
  }

  private async finish(id: string, owner: string, changes: { status: JobStatus; last_error?: string; run_at?: string }): Promise<void> {
    await this.db
      .updateTable('job')
      .set({ ...changes, lease_owner: null, lease_until: null, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .execute();
  }
}
