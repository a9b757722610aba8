import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestJobs, uploadFile, waitForDatasource } from '../support/datasources.js';
import { writeLongReport } from '../support/long-report.js';
import { startTestParley, type TestParley, type Workspace } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import { until } from '../support/until.js';
import type { DatasourceBody, DatastoreBody } from '../support/bodies.js';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.js';

/** CPU seconds of this process, every thread (the parse threads included). */
const ownCpuSeconds = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/** CPU seconds `cpuSeconds` gains over the next `ms`. */
async function cpuOver(cpuSeconds: () => number, ms: number): Promise<number> {
  const before = cpuSeconds();
  await new Promise((resolve) => setTimeout(resolve, ms));
  return cpuSeconds() - before;
}

/**
 * CPU seconds used in the second after next: a stopped parse thread may take a moment to be torn down, while
 * one still parsing would keep a core busy.
 */
async function cpuSoonAfter(cpuSeconds: () => number): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  return cpuOver(cpuSeconds, 1_000);
}

/**
 * Starts ingesting a 300-page report (about six seconds of parsing) and waits until its parse is under way:
 * the job running and the process busy (a new parse thread first takes a second or so to start). "Busy" is
 * a fifth of a core: the test suite runs two files at once on two cores, so a parse may get half of one.
 */
async function startSlowParse(parley: TestParley, ws: Workspace, datastoreId: string, report: string, cpuSeconds: () => number) {
  const created = await uploadFile<DatasourceBody>(parley, { key: ws.key, datastoreId, file: report });
  expect(created.status).toBe(200);
  await waitForDatasource(parley, ws.key, created.body.id, { until: new Set(['running']) });
  await until(() => cpuOver(cpuSeconds, 500), (used) => used > 0.1, 30_000);
  return created.body.id;
}

/** Waits for the job of `generation` to end, and answers how long after `since` (ms since the epoch) it did. */
async function jobEndedAfter(parley: TestParley, datasourceId: string, generation: number, since: number): Promise<number> {
  const [job] = await until(
    async () => (await ingestJobs(parley, datasourceId)).filter((candidate) => candidate.payload.generation === generation),
    ([candidate]) => candidate?.status === 'done' || candidate?.status === 'failed',
    10_000,
  );
  expect(job).toMatchObject({ status: 'done', attempts: 1 });
  return Date.parse(job!.updatedAt) - since;
}

describe.each(STORE_KINDS)('stopping a running ingestion on %s', (kind) => {
  let dir: string;
  let report: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'parley-abort-'));
    report = await writeLongReport(dir, 300);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  describe('with the workers in the process', () => {
    let parley: TestParley;
    let ws: Workspace;
    let datastoreId: string;
    beforeAll(async () => {
      parley = await startTestParley(kind, { workers: true, env: { PARLEY_EMBEDDINGS_THREADS: '1' } });
      ws = await parley.newWorkspace();
      datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: {} })).body.id;
    });
    afterAll(() => parley.close());

    it('DELETE stops the parse within a second and nothing is written', async () => {
      const id = await startSlowParse(parley, ws, datastoreId, report, ownCpuSeconds);
      const deletedAt = Date.now();
      expect((await parley.call('DELETE', `/datasources/${id}`, { key: ws.key })).status).toBe(200);
      expect(await jobEndedAfter(parley, id, 1, deletedAt)).toBeLessThan(1_000);
      expect(await cpuSoonAfter(ownCpuSeconds)).toBeLessThan(0.3);
      expect(await parley.core.store.datasources.listChunks(ws.id, id, { offset: 0, limit: 1 })).toEqual([]);
      expect((await parley.call('GET', `/datasources/${id}`, { key: ws.key })).status).toBe(404);
    });

    it('DELETE stops the embedding within a second', async () => {
      const text = Array.from({ length: 3_000 }, (_, i) => `Sentence ${i} tells of topic ${i % 50} in plain words.`).join(' ');
      const created = await parley.call<DatasourceBody>('POST', '/datasources', { key: ws.key, body: { type: 'text', datastoreId, text } });
      // Progress reaches 0.2 as embedding starts, and moves on only once the first batch of 64 chunks is embedded.
      await until(
        async () => (await parley.call<DatasourceBody>('GET', `/datasources/${created.body.id}`, { key: ws.key })).body,
        (datasource) => datasource.progress >= 0.2,
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      const deletedAt = Date.now();
      await parley.call('DELETE', `/datasources/${created.body.id}`, { key: ws.key });
      expect(await jobEndedAfter(parley, created.body.id, 1, deletedAt)).toBeLessThan(1_000);
      expect(await parley.core.store.datasources.listChunks(ws.id, created.body.id, { offset: 0, limit: 1 })).toEqual([]);
    });

    it('resync stops the running generation within a second and starts the next', async () => {
      const id = await startSlowParse(parley, ws, datastoreId, report, ownCpuSeconds);
      const resyncedAt = Date.now();
      const resynced = await parley.call<DatasourceBody>('POST', `/datasources/${id}/resync`, { key: ws.key });
      expect(resynced.body).toMatchObject({ status: 'pending' });
      expect(await jobEndedAfter(parley, id, 1, resyncedAt)).toBeLessThan(1_000);
      await until(() => ingestJobs(parley, id), (jobs) => jobs.some((job) => job.payload.generation === 2 && job.status === 'running'));
      const deletedAt = Date.now();
      await parley.call('DELETE', `/datasources/${id}`, { key: ws.key });
      expect(await jobEndedAfter(parley, id, 2, deletedAt)).toBeLessThan(1_000);
      expect(await parley.core.store.datasources.listChunks(ws.id, id, { offset: 0, limit: 1 })).toEqual([]);
    });
  });

  describe('with the workers in another process', () => {
    let parley: TestParley;
    let worker: WorkerProcess;
    let ws: Workspace;
    let datastoreId: string;
    beforeAll(async () => {
      parley = await startTestParley(kind);
      worker = await startWorkerProcess({ ...parley.scratch.env, PARLEY_EMBEDDINGS_THREADS: '1' });
      ws = await parley.newWorkspace();
      datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: {} })).body.id;
    });
    afterAll(async () => {
      await worker.stop();
      await parley.close();
    });

    it('DELETE stops the parse in the worker process within about a second', async () => {
      const id = await startSlowParse(parley, ws, datastoreId, report, () => worker.cpuSeconds());
      const deletedAt = Date.now();
      expect((await parley.call('DELETE', `/datasources/${id}`, { key: ws.key })).status).toBe(200);
      expect(await jobEndedAfter(parley, id, 1, deletedAt)).toBeLessThan(1_200);
      expect(await cpuSoonAfter(() => worker.cpuSeconds())).toBeLessThan(0.3);
      expect(await parley.core.store.datasources.listChunks(ws.id, id, { offset: 0, limit: 1 })).toEqual([]);
    });
  });
});
