import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import os from 'node:os';
import type { ClaimOptions, JobRecord, JobStore } from '../store/store.js';
import { retryDelayMs, type BackoffPolicy } from './backoff.js';
import { PermanentJobError, SupersededError, isPermanent } from './job-errors.js';
import { onBehalfOf } from '../observability/request-context.js';
import { pollDelayMs } from '../store/database-outage.js';

export interface JobContext {
  /** Aborted when the runner stops or the lease is lost to another worker. */
  signal: AbortSignal;
}

export interface JobHandler {
  run(job: JobRecord, context: JobContext): Promise<void>;
  /** Called once when the job has failed for good, to record the reason where people see it. */
  failed?(job: JobRecord, reason: string): Promise<void>;
  /** Called once a retry is scheduled (due at `runAt`), e.g. to show the datasource as pending again. */
  retrying?(job: JobRecord, reason: string, runAt: string): Promise<void>;
}

export interface JobRunnerOptions {
  concurrency: number;
  /**
   * Keep one slot beyond `concurrency` for a workspace with no job running: while the other slots are all busy
   * it takes such a workspace's next job, so a workspace whose slow documents fill every slot does not hold up
   * another's.
   */
  idleWorkspaceSlot?: boolean;
  leaseMs: number;
  /** How often an idle runner looks for due jobs (also woken at once by `wake`). */
  pollMs: number;
  backoff: BackoffPolicy;
  /** Called with errors of the runner itself (store unreachable), which it survives, polling less often while they last. */
  onError?: (error: unknown) => void;
  /**
   * Called with each failed attempt's error as thrown: the reason stored for users is its message, while
   * the error may hold more for operators (a model provider's answer).
   */
  onAttemptFailed?: (job: JobRecord, error: unknown) => void;
  /** Told how each attempt ended, for the log (with the request that caused the job). */
  onAttemptEnded?: (attempt: EndedAttempt) => void;
}

/** One attempt of a job, as the log records it. */
export interface EndedAttempt {
  jobId: string;
  kind: string;
  requestId: string | null;
  attempt: number;
  /** done; retry (later); failed (for good); released (the runner stopped); superseded (the work was replaced); lost (the lease went to another worker). */
  outcome: 'done' | 'retry' | 'failed' | 'released' | 'superseded' | 'lost';
  ms: number;
  error?: string;
}

const describeError = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Claims due jobs from the durable queue and runs them with bounded concurrency. Each claim is a lease
 * kept alive by heartbeats; if this process dies the lease runs out and any runner takes the job over.
 */
export class JobRunner {
  readonly owner = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  readonly #stopping = new AbortController();
  #idle = new AbortController();
  readonly #loops: Promise<void>[] = [];
  /** Jobs the `concurrency` shared slots are running. */
  #busySlots = 0;
  /**
   * Whether an idle shared slot already looks for due jobs on the timer: the other idle ones wait to be
   * woken, so an idle runner costs one claim per poll however many slots it has (a poller runner has 50).
   */
  #timerHeld = false;
  /** Idle slots waiting to be woken (not on the timer): `wake` and `stop` let them go. */
  readonly #sleepers = new Set<() => void>();

  constructor(
    private readonly jobs: JobStore,
    private readonly handlers: Readonly<Record<string, JobHandler>>,
    private readonly options: JobRunnerOptions,
  ) {}

  start(): void {
    for (let slot = 0; slot < this.options.concurrency; slot += 1) this.#loops.push(this.loop('shared'));
    if (this.options.idleWorkspaceSlot) this.#loops.push(this.loop('kept'));
  }

  /** Look for work now (a job was just enqueued in this process). */
  wake(): void {
    this.#idle.abort();
    for (const letGo of this.#sleepers) letGo();
    this.#sleepers.clear();
  }

  /** Stops claiming, aborts running jobs (their leases lapse and they run again later) and waits. */
  async stop(): Promise<void> {
    this.#stopping.abort();
    this.wake();
    await Promise.all(this.#loops);
  }

  private async loop(slot: 'shared' | 'kept'): Promise<void> {
    const kinds = Object.keys(this.handlers);
    const claiming: ClaimOptions = { idleWorkspacesOnly: slot === 'kept' };
    /** Claims that failed in a row (the store is away): each makes the next wait longer. */
    let failures = 0;
    while (!this.#stopping.signal.aborted) {
      // Re-armed before the claim, not after: a wake-up during a claim that found nothing ends the wait at once.
      if (this.#idle.signal.aborted) this.#idle = new AbortController();
      let job: JobRecord | undefined;
      // While a shared slot is free, it takes the next job (fairly): the kept slot stays free for later.
      if (slot === 'shared' || this.#busySlots === this.options.concurrency) {
        try {
          const now = Date.now();
          job = await this.jobs.claim(this.owner, kinds, new Date(now).toISOString(), new Date(now + this.options.leaseMs).toISOString(), claiming);
          failures = 0;
        } catch (error) {
          failures += 1;
          this.options.onError?.(error);
        }
      }
      if (job === undefined) {
        await this.idle(slot, failures);
        continue;
      }
      // There may be more due: the sleeping slots look too, and one of them keeps the timer.
      this.wake();
      if (slot === 'shared') this.#busySlots += 1;
      await this.execute(job).catch((error: unknown) => this.options.onError?.(error));
      if (slot === 'shared') this.#busySlots -= 1;
    }
  }

  /**
   * Waits after a claim found nothing: on the timer if no other shared slot does (the kept slot always
   * does, as it claims only while the shared ones are busy), else until woken. A wake-up or a stop ends
   * the wait early: the abort is the signal, not a failure.
   */
  private async idle(slot: 'shared' | 'kept', failures: number): Promise<void> {
    // Woken (or stopped) while it claimed: it looks again at once.
    if (this.#idle.signal.aborted || this.#stopping.signal.aborted) return;
    const onTimer = slot === 'kept' || !this.#timerHeld;
    if (!onTimer) return new Promise((letGo) => this.#sleepers.add(letGo));
    if (slot === 'shared') this.#timerHeld = true;
    try {
      const wakeUp = AbortSignal.any([this.#idle.signal, this.#stopping.signal]);
      await delay(pollDelayMs(this.options.pollMs, failures), undefined, { signal: wakeUp }).catch(() => undefined);
    } finally {
      if (slot === 'shared') this.#timerHeld = false;
    }
  }

  private async execute(job: JobRecord): Promise<void> {
    const handler = this.handlers[job.kind];
    if (handler === undefined) return;
    const started = performance.now();
    // What the job enqueues and writes is done for the request that caused it.
    const { outcome, error } = await onBehalfOf(job.requestId, () => this.attempt(job, handler));
    this.options.onAttemptEnded?.({
      jobId: job.id,
      kind: job.kind,
      requestId: job.requestId,
      attempt: job.attempts,
      outcome,
      ms: Math.round(performance.now() - started),
      ...(error === undefined ? {} : { error: describeError(error) }),
    });
  }

  private async attempt(job: JobRecord, handler: JobHandler): Promise<{ outcome: EndedAttempt['outcome']; error?: unknown }> {
    const lease = new AbortController();
    const signal = AbortSignal.any([lease.signal, this.#stopping.signal]);
    const heartbeat = setInterval(
      () => {
        const until = new Date(Date.now() + this.options.leaseMs).toISOString();
        this.jobs.extendLease(job.id, this.owner, until).then(
          (held) => held || lease.abort(new SupersededError('lease lost')),
          (error: unknown) => this.options.onError?.(error),
        );
      },
      Math.max(50, Math.floor(this.options.leaseMs / 3)),
    );
    try {
      if (job.attempts > job.maxAttempts) {
        throw new PermanentJobError(`gave up after ${job.maxAttempts} attempts; last error: ${job.lastError ?? 'none'}`);
      }
      // Stopped (or the lease lost) between the claim and now: a handler would wait for an abort already past.
      signal.throwIfAborted();
      await handler.run(job, { signal });
      await this.jobs.complete(job.id, this.owner);
      return { outcome: 'done' };
    } catch (error) {
      return { outcome: await this.settleFailure(job, handler, error, signal), error };
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async settleFailure(job: JobRecord, handler: JobHandler, error: unknown, signal: AbortSignal): Promise<EndedAttempt['outcome']> {
    if (error instanceof SupersededError) {
      await this.jobs.complete(job.id, this.owner);
      return 'superseded';
    }
    // Stopped mid-run: the job goes back to the queue as it was, to run again at the next start.
    if (this.#stopping.signal.aborted) {
      await this.jobs.release(job.id, this.owner);
      return 'released';
    }
    // The lease went to another worker, which now owns the outcome.
    if (signal.aborted) return 'lost';
    this.options.onAttemptFailed?.(job, error);
    const reason = describeError(error);
    if (isPermanent(error) || job.attempts >= job.maxAttempts) {
      await this.jobs.fail(job.id, this.owner, reason);
      await handler.failed?.(job, reason);
      return 'failed';
    }
    const runAt = new Date(Date.now() + retryDelayMs(job.attempts, this.options.backoff)).toISOString();
    await this.jobs.retryLater(job.id, this.owner, reason, runAt);
    await handler.retrying?.(job, reason, runAt);
    return 'retry';
  }
}
