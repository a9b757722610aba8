import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { JobRunner, type JobHandler } from '../../src/jobs/job-runner.js';
import { at, useScratchStore } from '../support/store-contract.js';
import { STORE_KINDS } from '../support/stores.js';

const LEASE = 30;

describe.each(STORE_KINDS)('jobs shared fairly between workspaces on %s', (kind) => {
  const store = useScratchStore(kind);

  /** A job of `jobKind` for `workspaceId`, due at `at(dueSecond)`, or now. */
  async function enqueue(jobKind: string, workspaceId: string | null, dueSecond?: number): Promise<string> {
    const id = newId();
    const runAt = dueSecond === undefined ? undefined : at(dueSecond);
    await store().jobs.enqueue({ id, kind: jobKind, workspaceId, payload: {}, maxAttempts: 3, ...(runAt === undefined ? {} : { runAt }) });
    return id;
  }

  const claim = async (jobKind: string, idleWorkspacesOnly = false) =>
    (await store().jobs.claim('worker-1', [jobKind], at(10), at(10 + LEASE), { idleWorkspacesOnly }))?.id;

  it('claims from the workspace with the fewest jobs running, then the job due longest', async () => {
    const jobKind = `fair-${newId()}`;
    const [a, b] = [newId(), newId()];
    const firstOfA = await enqueue(jobKind, a, 1);
    const secondOfA = await enqueue(jobKind, a, 2);
    const thirdOfA = await enqueue(jobKind, a, 3);
    const onlyOfB = await enqueue(jobKind, b, 5);
    expect(await claim(jobKind)).toBe(firstOfA);
    // A has one running, B none: B's job goes first although A's were due earlier.
    expect(await claim(jobKind)).toBe(onlyOfB);
    expect(await claim(jobKind)).toBe(secondOfA);
    expect(await claim(jobKind)).toBe(thirdOfA);
  });

  it('counts only live leases as running, and only jobs of the kinds claimed', async () => {
    const jobKind = `fair-${newId()}`;
    const otherKind = `other-${newId()}`;
    const [a, b] = [newId(), newId()];
    // B has a job of this kind running, and another waiting.
    await enqueue(jobKind, b, -2);
    await store().jobs.claim('worker-1', [jobKind], at(5), at(5 + LEASE));
    await enqueue(jobKind, b, -1);
    // A runs a job of another kind only, and has one of this kind whose worker died (its lease ran out at 6).
    await enqueue(otherKind, a);
    await store().jobs.claim('worker-1', [otherKind], at(5), at(5 + LEASE));
    const orphan = await enqueue(jobKind, a, 0);
    await store().jobs.claim('worker-0', [jobKind], at(1), at(6));
    expect(await claim(jobKind)).toBe(orphan);
  });

  it('hands the slot kept for idle workspaces only a job of a workspace with none running', async () => {
    const jobKind = `fair-${newId()}`;
    const [a, b] = [newId(), newId()];
    await enqueue(jobKind, a, 1);
    await enqueue(jobKind, a, 2);
    await enqueue(jobKind, null, 3);
    await claim(jobKind);
    // A has one running; the job of no workspace is no workspace's.
    expect(await claim(jobKind, true)).toBeUndefined();
    const onlyOfB = await enqueue(jobKind, b, 4);
    expect(await claim(jobKind, true)).toBe(onlyOfB);
    expect(await claim(jobKind, true)).toBeUndefined();
  });

  it('runs a job of another workspace while one workspace holds every slot', async () => {
    const jobKind = `fair-${newId()}`;
    const [a, b] = [newId(), newId()];
    const started: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // A's jobs hold their slot until released; B's ends at once.
    const handler: JobHandler = {
      async run(job) {
        started.push(job.workspaceId!);
        if (job.workspaceId === a) await released;
      },
    };
    const runner = new JobRunner(
      store().jobs,
      { [jobKind]: handler },
      {
        concurrency: 2,
        idleWorkspaceSlot: true,
        leaseMs: 5_000,
        pollMs: 20,
        backoff: { baseMs: 20, maxMs: 100 },
      },
    );
    const ofA = [await enqueue(jobKind, a), await enqueue(jobKind, a), await enqueue(jobKind, a)];
    runner.start();
    try {
      await expect.poll(() => started.length, { interval: 20, timeout: 10_000 }).toBe(2);
      const ofB = await enqueue(jobKind, b);
      runner.wake();
      await expect.poll(async () => (await store().jobs.find(ofB))?.status, { interval: 20, timeout: 10_000 }).toBe('done');
      // The kept slot took B's job, never A's third.
      expect(started).toEqual([a, a, b]);
      expect((await store().jobs.find(ofA[2]!))?.status).toBe('queued');
    } finally {
      release();
      await runner.stop();
    }
  });
});
