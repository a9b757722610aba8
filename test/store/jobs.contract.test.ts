import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import type { NewJob } from '../../src/store/store.js';
import { at, jobRecord, useScratchStore } from '../support/store-contract.js';
import { STORE_KINDS } from '../support/stores.js';

/** Leases in these tests run from `at(s)` to `at(s + LEASE)`. */
const LEASE = 30;

describe.each(STORE_KINDS)('the jobs port of the %s store', (kind) => {
  const store = useScratchStore(kind);

  /** A job of a kind of its own, so no other test's job is ever claimed in its place. */
  async function enqueue(overrides: Partial<NewJob> = {}): Promise<NewJob> {
    const job = jobRecord({ kind: `contract-${newId()}`, runAt: at(0), ...overrides });
    await store().jobs.enqueue(job);
    return job;
  }

  const claim = (owner: string, job: { kind: string }, seconds: number) => store().jobs.claim(owner, [job.kind], at(seconds), at(seconds + LEASE));

  describe('claiming', () => {
    it('leases a due job to the worker that claims it and counts the attempt', async () => {
      const job = await enqueue({ workspaceId: null, payload: { datasourceId: 'ds_1', generation: 2 }, maxAttempts: 5 });
      const claimed = await claim('worker-1', job, 10);
      expect(claimed).toMatchObject({
        id: job.id,
        kind: job.kind,
        payload: { datasourceId: 'ds_1', generation: 2 },
        status: 'running',
        attempts: 1,
        maxAttempts: 5,
        runAt: at(0),
        leaseOwner: 'worker-1',
        leaseUntil: at(10 + LEASE),
        lastError: null,
      });
      expect(await store().jobs.find(job.id)).toEqual(claimed);
    });

    it('does not claim a job before it is due, and claims it once it is', async () => {
      const job = await enqueue({ runAt: at(100) });
      expect(await claim('worker-1', job, 99)).toBeUndefined();
      expect(await claim('worker-1', job, 100)).toMatchObject({ id: job.id });
    });

    it('makes a job enqueued without a time due at once', async () => {
      const job = jobRecord({ kind: `contract-${newId()}` });
      await store().jobs.enqueue(job);
      const now = Date.now() + 1000;
      const claimed = await store().jobs.claim('worker-1', [job.kind], new Date(now).toISOString(), new Date(now + 30_000).toISOString());
      expect(claimed?.id).toBe(job.id);
    });

    it('claims only jobs of the kinds asked for, and nothing when no kind is asked for', async () => {
      const wanted = await enqueue();
      const other = await enqueue();
      expect(await store().jobs.claim('worker-1', [], at(10), at(40))).toBeUndefined();
      expect((await claim('worker-1', wanted, 10))?.id).toBe(wanted.id);
      expect(await claim('worker-1', wanted, 10)).toBeUndefined();
      expect((await store().jobs.find(other.id))?.status).toBe('queued');
    });

    it('claims the job due longest first', async () => {
      const kind = `contract-${newId()}`;
      const later = await enqueue({ kind, runAt: at(5) });
      const earlier = await enqueue({ kind, runAt: at(1) });
      const ids = [(await claim('worker-1', { kind }, 10))?.id, (await claim('worker-1', { kind }, 10))?.id];
      expect(ids).toEqual([earlier.id, later.id]);
    });

    it('does not let a job claimed by one worker be claimed by another until its lease runs out', async () => {
      const job = await enqueue();
      await claim('worker-1', job, 10);
      expect(await claim('worker-2', job, 10 + LEASE - 1)).toBeUndefined();
      const taken = await claim('worker-2', job, 10 + LEASE + 1);
      expect(taken).toMatchObject({ id: job.id, leaseOwner: 'worker-2', attempts: 2, status: 'running' });
    });

    it('hands one due job to exactly one of the workers claiming at the same time', async () => {
      const job = await enqueue();
      const claims = await Promise.all(['w1', 'w2', 'w3', 'w4'].map((owner) => claim(owner, job, 10)));
      expect(claims.filter((claimed) => claimed !== undefined)).toHaveLength(1);
      expect((await store().jobs.find(job.id))?.attempts).toBe(1);
    });

    it('hands each of several due jobs to one worker only when many claim at once', async () => {
      const kind = `contract-${newId()}`;
      const jobs = [await enqueue({ kind }), await enqueue({ kind }), await enqueue({ kind })];
      const claims = await Promise.all(['w1', 'w2', 'w3', 'w4', 'w5'].map((owner) => claim(owner, { kind }, 10)));
      const ids = claims.flatMap((claimed) => (claimed === undefined ? [] : [claimed.id]));
      expect(ids.sort()).toEqual(jobs.map((job) => job.id).sort());
    });
  });

  describe('leases', () => {
    it('extends the lease of the worker holding it, so nobody takes the job over at the old expiry', async () => {
      const job = await enqueue();
      await claim('worker-1', job, 10);
      expect(await store().jobs.extendLease(job.id, 'worker-1', at(10 + 3 * LEASE))).toBe(true);
      expect((await store().jobs.find(job.id))?.leaseUntil).toBe(at(10 + 3 * LEASE));
      expect(await claim('worker-2', job, 10 + LEASE + 1)).toBeUndefined();
    });

    it('refuses to extend a lease the worker does not hold', async () => {
      const job = await enqueue();
      expect(await store().jobs.extendLease(job.id, 'worker-1', at(100))).toBe(false);
      await claim('worker-1', job, 10);
      expect(await store().jobs.extendLease(job.id, 'worker-2', at(100))).toBe(false);
      await store().jobs.complete(job.id, 'worker-1');
      expect(await store().jobs.extendLease(job.id, 'worker-1', at(100))).toBe(false);
    });

    it('ignores every outcome reported by a worker that lost its lease to another', async () => {
      const job = await enqueue();
      await claim('worker-1', job, 10);
      const taken = await claim('worker-2', job, 10 + LEASE + 1);
      expect(await store().jobs.extendLease(job.id, 'worker-1', at(500))).toBe(false);
      await store().jobs.complete(job.id, 'worker-1');
      await store().jobs.fail(job.id, 'worker-1', 'late failure');
      await store().jobs.retryLater(job.id, 'worker-1', 'late retry', at(900));
      await store().jobs.release(job.id, 'worker-1');
      expect(await store().jobs.find(job.id)).toEqual(taken);
    });
  });

  describe('outcomes', () => {
    it('completes a job for good: done, no lease, never claimed again', async () => {
      const job = await enqueue();
      await claim('worker-1', job, 10);
      await store().jobs.complete(job.id, 'worker-1');
      expect(await store().jobs.find(job.id)).toMatchObject({ status: 'done', leaseOwner: null, leaseUntil: null, attempts: 1 });
      expect(await claim('worker-2', job, 10_000)).toBeUndefined();
    });

    it('puts a job to retry back in the queue, due when asked, remembering why', async () => {
      const job = await enqueue();
      await claim('worker-1', job, 10);
      await store().jobs.retryLater(job.id, 'worker-1', 'provider timed out', at(60));
      expect(await store().jobs.find(job.id)).toMatchObject({
        status: 'queued',
        runAt: at(60),
        lastError: 'provider timed out',
        leaseOwner: null,
        leaseUntil: null,
      });
      expect(await claim('worker-2', job, 59)).toBeUndefined();
      expect(await claim('worker-2', job, 60)).toMatchObject({ attempts: 2, leaseOwner: 'worker-2', lastError: 'provider timed out' });
    });

    it('fails a job for good with its reason: never claimed again', async () => {
      const job = await enqueue();
      await claim('worker-1', job, 10);
      await store().jobs.fail(job.id, 'worker-1', 'unreadable document');
      expect(await store().jobs.find(job.id)).toMatchObject({ status: 'failed', lastError: 'unreadable document', leaseOwner: null });
      expect(await claim('worker-2', job, 10_000)).toBeUndefined();
    });

    it('hands a released job back to the queue at once, not counting the interrupted attempt', async () => {
      const job = await enqueue();
      await claim('worker-1', job, 10);
      await store().jobs.release(job.id, 'worker-1');
      expect(await store().jobs.find(job.id)).toMatchObject({ status: 'queued', attempts: 0, leaseOwner: null, leaseUntil: null });
      expect(await claim('worker-2', job, 11)).toMatchObject({ attempts: 1, leaseOwner: 'worker-2' });
    });
  });

  describe('enqueueing one due run', () => {
    it('queues a job once: a second enqueue of its id is a no-op, while it waits and after it is done', async () => {
      const job = jobRecord({ kind: `contract-${newId()}`, runAt: at(0), payload: { first: true } });
      await store().jobs.enqueueOnce(job);
      await store().jobs.enqueueOnce({ ...job, runAt: at(50), payload: { first: false } });
      expect(await store().jobs.find(job.id)).toMatchObject({ status: 'queued', runAt: at(0), payload: { first: true } });
      expect(await claim('worker-1', job, 10)).toMatchObject({ id: job.id });
      await store().jobs.complete(job.id, 'worker-1');
      await store().jobs.enqueueOnce(job);
      expect(await store().jobs.find(job.id)).toMatchObject({ status: 'done', attempts: 1 });
      expect(await claim('worker-2', job, 20)).toBeUndefined();
    });
  });

  describe('reading', () => {
    it('finds nothing for an unknown id', async () => {
      expect(await store().jobs.find(newId())).toBeUndefined();
    });

    it('lists jobs oldest first, narrowed by kind and status', async () => {
      const kind = `contract-${newId()}`;
      const first = await enqueue({ kind, runAt: at(3) });
      const second = await enqueue({ kind, runAt: at(2) });
      const third = await enqueue({ kind, runAt: at(1) });
      await enqueue();
      expect((await store().jobs.list({ kind })).map((job) => job.id)).toEqual([first.id, second.id, third.id]);
      await claim('worker-1', { kind }, 10);
      expect((await store().jobs.list({ kind, statuses: ['queued'] })).map((job) => job.id)).toEqual([first.id, second.id]);
      expect((await store().jobs.list({ kind, statuses: ['running', 'done'] })).map((job) => job.id)).toEqual([third.id]);
    });
  });
});
