import { UndeliverableError, type AttemptResult } from './attempt-result.js';
import type { DeliveryJobPayload } from './delivery-plan.js';
import type { DeliveryRecord, JobRecord, Store } from '../store/store.js';
import { PermanentJobError } from '../jobs/job-errors.js';
import type { JobContext, JobHandler } from '../jobs/job-runner.js';

/** The job's payload and the workspace its record carries. */
interface DeliveryJob extends DeliveryJobPayload {
  workspaceId: string;
}

const readJob = (job: JobRecord): DeliveryJob => {
  const { workspaceId } = job;
  const { deliveryId, recipient } = job.payload;
  const knownRecipient = recipient === undefined || recipient === 'admins' || recipient === 'customer';
  if (workspaceId === null || typeof deliveryId !== 'string' || !knownRecipient) {
    throw new PermanentJobError(`malformed delivery job ${JSON.stringify({ workspaceId, payload: job.payload })}`);
  }
  return { workspaceId, deliveryId, recipient };
};

const nowIso = () => new Date().toISOString();

/**
 * Sends one delivery per run and logs the attempt; a failed attempt throws, so the job runner retries it
 * with backoff and this handler keeps the delivery's status and next attempt time in step.
 */
export abstract class DeliveryHandler implements JobHandler {
  constructor(protected readonly store: Store) {}

  protected abstract attempt(delivery: DeliveryRecord, payload: DeliveryJobPayload, signal: AbortSignal): Promise<AttemptResult>;

  async run(job: JobRecord, { signal }: JobContext): Promise<void> {
    const payload = readJob(job);
    const delivery = await this.store.deliveries.find(payload.workspaceId, payload.deliveryId);
    // Gone with its endpoint, or received already (the process stopped between sending and finishing the job).
    if (delivery === undefined || delivery.status === 'succeeded') return;
    const started = Date.now();
    let result: AttemptResult;
    let permanent = false;
    try {
      result = await this.attempt(delivery, payload, signal);
    } catch (error) {
      if (!(error instanceof UndeliverableError)) throw error;
      result = { ok: false, statusCode: null, error: error.message, responseExcerpt: null };
      permanent = true;
    }
    const at = nowIso();
    await this.store.deliveries.recordAttempt(
      delivery.workspaceId,
      delivery.id,
      { attempt: delivery.attemptCount + 1, startedAt: new Date(started).toISOString(), durationMs: Date.now() - started, ...result },
      { status: result.ok ? 'succeeded' : 'pending', nextAttemptAt: null, at },
    );
    if (result.ok) return;
    const reason = result.error ?? 'delivery failed';
    throw permanent ? new PermanentJobError(reason) : new Error(reason);
  }

  async retrying(job: JobRecord, _reason: string, runAt: string): Promise<void> {
    const { workspaceId, deliveryId } = readJob(job);
    await this.store.deliveries.settle(workspaceId, deliveryId, { status: 'pending', nextAttemptAt: runAt, at: nowIso() });
  }

  async failed(job: JobRecord, reason: string): Promise<void> {
    const { workspaceId, deliveryId } = readJob(job);
    await this.store.deliveries.settle(workspaceId, deliveryId, { status: 'failed', nextAttemptAt: null, at: nowIso() }, reason);
  }
}
