import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { PermanentJobError } from '../../src/jobs/job-errors.js';
import { JobRunner, type EndedAttempt, type JobHandler, type JobRunnerOptions } from '../../src/jobs/job-runner.js';
import { currentRequestId, onBehalfOf } from '../../src/observability/request-context.js';
import { ModelError } from '../../src/llm/model-error.js';
import { openStore } from '../../src/store/open-store.js';
import type { JobRecord, Store } from '../../src/store/store.js';
import { STORE_KINDS, createScratchStore, type ScratchStore } from '../support/stores.js';

const OPTIONS: JobRunnerOptions = { concurrency: 2, leaseMs: 1_000, pollMs: 20, backoff: { baseMs: 20, maxMs: 100 } };

describe.each(STORE_KINDS)('durable job queue on %s', (kind) => {
  let scratch: ScratchStore;
  let store: Store;

  beforeAll(async () => {
    scratch = await createScratchStore(kind);
    store = await openStore(scratch.config, scratch.dataDir);
  });
  afterAll(async () => {
    await store.close();
    await scratch.drop();
  });

  const enqueue = async (kind: string, maxAttempts = 5, payload: Record<string, unknown> = {}) => {
    const id = newId();
    await store.jobs.enqueue({ id, kind, workspaceId: null, payload, maxAttempts });
    return id;
  };

  it('retries a failing job with backoff until it succeeds', async () => {
    const calls: number[] = [];
    const retried: string[] = [];
    const handler: JobHandler = {
      async run(job) {
        calls.push(Date.now());
        if (job.attempts < 3) throw new Error(`flaky ${job.attempts}`);
      },
      async retrying(_job, reason) {
        retried.push(reason);
      },
    };
    const runner = new JobRunner(store.jobs, { flaky: handler }, OPTIONS);
    const id = await enqueue('flaky');
    runner.start();
    await expect.poll(async () => (await store.jobs.find(id))?.status, { interval: 20, timeout: 10_000 }).toBe('done');
    await runner.stop();
    expect(calls).toHaveLength(3);
    expect(retried).toEqual(['flaky 1', 'flaky 2']);
    expect(calls[2]! - calls[1]!).toBeGreaterThanOrEqual(15);
    expect(await store.jobs.find(id)).toMatchObject({ attempts: 3, status: 'done', lastError: 'flaky 2' });
  });

  it('runs a job on behalf of the request that enqueued it, and reports every attempt with that request', async () => {
    const ended: EndedAttempt[] = [];
    const seen: (string | null)[] = [];
    const handler: JobHandler = {
      async run(job) {
        seen.push(currentRequestId());
        // What the job enqueues is done for the same request.
        if (job.attempts < 2) throw new Error('not yet');
        await store.jobs.enqueue({ id: `${job.id}-follow-up`, kind: 'follow-up', workspaceId: null, payload: {}, maxAttempts: 1 });
      },
    };
    const runner = new JobRunner(store.jobs, { traced: handler }, { ...OPTIONS, onAttemptEnded: (attempt) => ended.push(attempt) });
    const id = newId();
    await onBehalfOf('req_abc', () => store.jobs.enqueue({ id, kind: 'traced', workspaceId: null, payload: {}, maxAttempts: 5 }));
    expect((await store.jobs.find(id))?.requestId).toBe('req_abc');
    runner.start();
    await expect.poll(async () => (await store.jobs.find(id))?.status, { interval: 20, timeout: 10_000 }).toBe('done');
    await runner.stop();
    expect(seen).toEqual(['req_abc', 'req_abc']);
    expect((await store.jobs.find(`${id}-follow-up`))?.requestId).toBe('req_abc');
    expect(ended.map(({ jobId, kind, requestId, attempt, outcome, error }) => ({ jobId, kind, requestId, attempt, outcome, error }))).toEqual([
      { jobId: id, kind: 'traced', requestId: 'req_abc', attempt: 1, outcome: 'retry', error: 'not yet' },
      { jobId: id, kind: 'traced', requestId: 'req_abc', attempt: 2, outcome: 'done', error: undefined },
    ]);
    // Outside any request, nothing is recorded.
    const plain = await enqueue('untraced');
    expect((await store.jobs.find(plain))?.requestId).toBeNull();
  });

  it('fails at once on a permanent error and after the last attempt otherwise', async () => {
    const failures: string[] = [];
    const handlers: Record<string, JobHandler> = {
      broken: {
        run: async () => {
          throw new PermanentJobError('corrupt input');
        },
        failed: async (_job, reason) => void failures.push(reason),
      },
      hopeless: {
        run: async () => {
          throw new Error('still down');
        },
        failed: async (_job, reason) => void failures.push(reason),
      },
    };
    const runner = new JobRunner(store.jobs, handlers, OPTIONS);
    const broken = await enqueue('broken');
    const hopeless = await enqueue('hopeless', 3);
    runner.start();
    await expect.poll(async () => (await store.jobs.find(hopeless))?.status, { interval: 20, timeout: 10_000 }).toBe('failed');
    await runner.stop();
    expect(await store.jobs.find(broken)).toMatchObject({ status: 'failed', attempts: 1, lastError: 'corrupt input' });
    expect(await store.jobs.find(hopeless)).toMatchObject({ status: 'failed', attempts: 3, lastError: 'still down' });
    expect(failures.sort()).toEqual(['corrupt input', 'still down']);
  });

  it('reads whether an error is retryable: a refused model request fails at once, an unavailable one is retried', async () => {
    const attempts: unknown[] = [];
    const refusal = new ModelError('refused', 'The embeddings provider refused the request', 401, 'HTTP 401: bad key');
    const outage = new ModelError('unavailable', 'The embeddings provider is unavailable', 503, 'HTTP 503: down');
    const handlers: Record<string, JobHandler> = {
      refused: { run: async () => Promise.reject(refusal) },
      outage: { run: async (job) => (job.attempts < 2 ? Promise.reject(outage) : undefined) },
    };
    const runner = new JobRunner(store.jobs, handlers, { ...OPTIONS, onAttemptFailed: (_job, error) => attempts.push(error) });
    const refused = await enqueue('refused');
    const recovered = await enqueue('outage');
    runner.start();
    await expect
      .poll(async () => (await store.jobs.find(recovered))?.status === 'done' && (await store.jobs.find(refused))?.status === 'failed', {
        interval: 20,
        timeout: 10_000,
      })
      .toBe(true);
    await runner.stop();
    expect(await store.jobs.find(refused)).toMatchObject({ status: 'failed', attempts: 1, lastError: refusal.message });
    expect(await store.jobs.find(recovered)).toMatchObject({ status: 'done', attempts: 2, lastError: outage.message });
    expect(attempts).toHaveLength(2);
    expect(attempts).toEqual(expect.arrayContaining([outage, refusal]));
  });

  it('takes over a job whose worker died (its lease ran out)', async () => {
    const id = await enqueue('orphan');
    const now = Date.now();
    const dead = await store.jobs.claim('dead-worker', ['orphan'], new Date(now).toISOString(), new Date(now + 300).toISOString());
    expect(dead?.id).toBe(id);
    const ran: JobRecord[] = [];
    const runner = new JobRunner(store.jobs, { orphan: { run: async (job) => void ran.push(job) } }, OPTIONS);
    runner.start();
    await expect.poll(async () => (await store.jobs.find(id))?.status, { interval: 20, timeout: 10_000 }).toBe('done');
    await runner.stop();
    expect(ran).toHaveLength(1);
    expect(ran[0]!.attempts).toBe(2);
    // The dead worker's late outcome cannot overwrite the new owner's.
    await store.jobs.fail(id, 'dead-worker', 'too late');
    expect((await store.jobs.find(id))?.status).toBe('done');
  });

  it('hands a running job back to the queue on shutdown, without spending an attempt', async () => {
    let started = false;
    const handler: JobHandler = {
      run: (_job, { signal }) =>
        new Promise((_resolve, reject) => {
          started = true;
          signal.addEventListener('abort', () => reject(new Error('aborted')));
        }),
    };
    const id = await enqueue('long');
    const runner = new JobRunner(store.jobs, { long: handler }, OPTIONS);
    runner.start();
    await expect.poll(async () => started, { interval: 20, timeout: 10_000 }).toBe(true);
    await runner.stop();
    expect(await store.jobs.find(id)).toMatchObject({ status: 'queued', attempts: 0, leaseOwner: null });
  });

  it('keeps a long job’s lease alive with heartbeats', async () => {
    const id = await enqueue('slow');
    const runner = new JobRunner(
      store.jobs,
      { slow: { run: () => new Promise((resolve) => setTimeout(resolve, 700)) } },
      { ...OPTIONS, leaseMs: 300 },
    );
    runner.start();
    await expect.poll(async () => (await store.jobs.find(id))?.status, { interval: 20, timeout: 10_000 }).toBe('done');
    await runner.stop();
    expect((await store.jobs.find(id))?.attempts).toBe(1);
  });

  it('looks for work once per poll however many slots it has, and still fills every slot when work comes', async () => {
    let claims = 0;
    const counted = Object.create(store.jobs) as Store['jobs'];
    counted.claim = (...args) => {
      claims += 1;
      return store.jobs.claim(...args);
    };
    let running = 0;
    let mostAtOnce = 0;
    const handler: JobHandler = {
      async run() {
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        await new Promise((resolve) => setTimeout(resolve, 300));
        running -= 1;
      },
    };
    const runner = new JobRunner(counted, { wide: handler }, { ...OPTIONS, concurrency: 20, pollMs: 50 });
    runner.start();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // Idle for a second at a 50 ms poll: about 20 claims, not 20 slots × 20 polls.
    expect(claims).toBeLessThan(60);
    // Enqueued by another process (no wake-up here): the timer finds the first, and the slots take the rest.
    const ids = await Promise.all(Array.from({ length: 8 }, () => enqueue('wide')));
    await expect
      .poll(async () => Promise.all(ids.map(async (id) => (await store.jobs.find(id))?.status)), { interval: 20 })
      .toEqual(ids.map(() => 'done'));
    await runner.stop();
    expect(mostAtOnce).toBeGreaterThanOrEqual(4);
  });
});

describe.skipIf(!STORE_KINDS.includes('postgres'))('job claims across PostgreSQL connections', () => {
  it('never hands the same job to two claimers', async () => {
    const scratch = await createScratchStore('postgres');
    const stores = [await openStore(scratch.config, scratch.dataDir), await openStore(scratch.config, scratch.dataDir)];
    try {
      const ids = new Set<string>();
      for (let index = 0; index < 120; index += 1) {
        const id = newId();
        ids.add(id);
        await stores[0]!.jobs.enqueue({ id, kind: 'race', workspaceId: null, payload: {}, maxAttempts: 1 });
      }
      const claimed: string[] = [];
      const lease = new Date(Date.now() + 60_000).toISOString();
      await Promise.all(
        Array.from({ length: 8 }, async (_unused, worker) => {
          const jobs = stores[worker % 2]!.jobs;
          for (;;) {
            const job = await jobs.claim(`w${worker}`, ['race'], new Date().toISOString(), lease);
            if (job === undefined) return;
            claimed.push(job.id);
          }
        }),
      );
      expect(claimed).toHaveLength(ids.size);
      expect(new Set(claimed)).toEqual(ids);
    } finally {
      for (const store of stores) await store.close();
      await scratch.drop();
    }
  });
});
