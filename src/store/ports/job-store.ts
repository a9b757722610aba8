/** Jobs: the durable queue that workers take work from (ingestion, deliveries). */

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

export interface NewJob {
  id: string;
  kind: string;
  workspaceId: string | null;
  payload: Record<string, unknown>;
  maxAttempts: number;
  /** When it may first run; now when absent. */
  runAt?: string;
}

export interface JobRecord {
  id: string;
  kind: string;
  workspaceId: string | null;
  payload: Record<string, unknown>;
  status: JobStatus;
  /** Attempts started so far, this one included once claimed. */
  attempts: number;
  maxAttempts: number;
  runAt: string;
  leaseOwner: string | null;
  leaseUntil: string | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
  /** The API request that enqueued it (directly or through the event it delivers); null when none did. */
  requestId: string | null;
}

export interface ClaimOptions {
  /** Only a job of a workspace with no job of the same kinds running (in any process). */
  idleWorkspacesOnly?: boolean;
}

export interface JobQueueReading {
  kind: string;
  queued: number;
  running: number;
  /** The earliest `runAt` of its queued jobs that are due; null when none is. */
  oldestDueAt: string | null;
}

/**
 * The durable queue. A job is claimed with a lease; a job whose lease ran out (its process died) can be
 * claimed again. Every change after the claim names the lease owner, so a worker that lost its lease
 * cannot overwrite the new owner's outcome.
 *
 * One queue serves every workspace, and a worker claims the job due next from the workspace that has the
 * fewest running. A job carries its workspace (`workspaceId`), by which its handler scopes the rest of its work.
 */
export interface JobStore {
  enqueue(job: NewJob): Promise<void>;
  /**
   * Queues `job` unless a job of its id is already queued or running: one that ended (done or failed) is
   * queued again from its first attempt. For work that must run once at a time, such as a channel's poller.
   */
  ensureQueued(job: NewJob): Promise<void>;
  /**
   * Queues `job` unless a job of its id exists, whatever its status (a done one included): a job whose id
   * names one due run (a scheduled re-sync) is enqueued by whoever gets there first, and runs once.
   */
  enqueueOnce(job: NewJob): Promise<void>;
  /**
   * The next due job of `kinds`, now leased to `owner` until `leaseUntil`; undefined when none is due. Fair
   * across workspaces: from the workspace with the fewest jobs of `kinds` running, then the job due longest.
   */
  claim(owner: string, kinds: readonly string[], now: string, leaseUntil: string, options?: ClaimOptions): Promise<JobRecord | undefined>;
  /** Extends the lease; false when `owner` no longer holds it. */
  extendLease(id: string, owner: string, leaseUntil: string): Promise<boolean>;
  complete(id: string, owner: string): Promise<void>;
  /** Back to the queue, due at `runAt`, remembering why this attempt failed. */
  retryLater(id: string, owner: string, error: string, runAt: string): Promise<void>;
  fail(id: string, owner: string, error: string): Promise<void>;
  /** Hands an interrupted job back to the queue at once, not counting the attempt (graceful shutdown). */
  release(id: string, owner: string): Promise<void>;
  find(id: string): Promise<JobRecord | undefined>;
  /** How many jobs of each kind wait and run, and since when the longest-waiting due one has been due. */
  queueReadings(now: string): Promise<JobQueueReading[]>;
  /** Jobs in the given statuses, oldest first (tests, the dashboard). */
  list(filter: { kind?: string; statuses?: readonly JobStatus[] }): Promise<JobRecord[]>;
}
