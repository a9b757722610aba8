import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, ingestJobs, uploadFile, waitForDatasource } from '../support/datasources.js';
import { writeLongReport } from '../support/long-report.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import { busyThreads, threadAlive, threadIds } from '../support/thread-cpu.js';
import { until } from '../support/until.js';
import type { DatasourceBody, DatastoreBody } from '../support/bodies.js';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.js';

/**
 * Ingests a short document to the end, so that the parse thread exists and has loaded its code (from the
 * TypeScript sources, a second or two of CPU that looks like parsing but is not stopped by an abort: the task
 * still waits in the queue), and the embedding model too.
 */
async function warmUp(parley: TestParley, ws: Workspace, datastoreId: string): Promise<void> {
  const created = await uploadFile<DatasourceBody>(parley, { key: ws.key, datastoreId, file: path.join(FIXTURES, 'docx-summer-activities.docx') });
  expect((await waitForDatasource(parley, ws.key, created.body.id)).status).toBe('synched');
}

/** A process that parses, and the threads it had before its first parse. */
interface Parser {
  pid: number;
  startedWith: Set<number>;
}

/**
 * Starts ingesting a 300-page report (seconds of parsing) and waits until its parse is under way: the job
 * running and a thread the parser did not start with busy (a fifth of a core: the suite runs two files at once
 * on two cores). Answers the datasource and the parse's threads.
 */
async function startSlowParse(parley: TestParley, ws: Workspace, datastoreId: string, report: string, { pid, startedWith }: Parser) {
  const created = await uploadFile<DatasourceBody>(parley, { key: ws.key, datastoreId, file: report });
  expect(created.status).toBe(200);
  await waitForDatasource(parley, ws.key, created.body.id, { until: new Set(['running']) });
  const parsing = await until(
    () => busyThreads(pid, startedWith, 500, 0.1),
    (tids) => tids.length > 0,
    30_000,
  );
  return { id: created.body.id, parsing };
}

/**
 * Waits (three seconds at most) for the parse's threads to end: a stopped parse's thread is terminated
 * wherever it is. CPU time alone would not tell, as the rest of a loaded machine and the collector count in it.
 */
const threadsEnd = (pid: number, tids: readonly number[]) =>
  until(
    () => tids.filter((tid) => threadAlive(pid, tid)),
    (alive) => alive.length === 0,
    3_000,
  );

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
    let parser: Parser;
    parleyTest.beforeAll(async ({ startParley }) => {
      parley = await startParley(kind, { workers: true, env: { PARLEY_EMBEDDINGS_THREADS: '1' } });
      ws = await parley.newWorkspace();
      datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: {} })).body.id;
      parser = { pid: process.pid, startedWith: threadIds(process.pid) };
      await warmUp(parley, ws, datastoreId);
    });

    it('DELETE stops the parse within a second and nothing is written', async () => {
      const { id, parsing } = await startSlowParse(parley, ws, datastoreId, report, parser);
      const deletedAt = Date.now();
      expect((await parley.call('DELETE', `/datasources/${id}`, { key: ws.key })).status).toBe(200);
      expect(await jobEndedAfter(parley, id, 1, deletedAt)).toBeLessThan(1_000);
      await threadsEnd(process.pid, parsing);
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
      const { id } = await startSlowParse(parley, ws, datastoreId, report, parser);
      const resyncedAt = Date.now();
      const resynced = await parley.call<DatasourceBody>('POST', `/datasources/${id}/resync`, { key: ws.key });
      expect(resynced.body).toMatchObject({ status: 'pending' });
      expect(await jobEndedAfter(parley, id, 1, resyncedAt)).toBeLessThan(1_000);
      await until(
        () => ingestJobs(parley, id),
        (jobs) => jobs.some((job) => job.payload.generation === 2 && job.status === 'running'),
      );
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
    let parser: Parser;
    parleyTest.beforeAll(async ({ startParley }) => {
      parley = await startParley(kind);
      worker = await startWorkerProcess({ ...parley.scratch.env, PARLEY_EMBEDDINGS_THREADS: '1' });
      ws = await parley.newWorkspace();
      datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: {} })).body.id;
      parser = { pid: worker.pid, startedWith: threadIds(worker.pid) };
      await warmUp(parley, ws, datastoreId);
    });
    afterAll(async () => {
      await worker.stop();
    });

    it('DELETE stops the parse in the worker process within about a second', async () => {
      const { id, parsing } = await startSlowParse(parley, ws, datastoreId, report, parser);
      const deletedAt = Date.now();
      expect((await parley.call('DELETE', `/datasources/${id}`, { key: ws.key })).status).toBe(200);
      expect(await jobEndedAfter(parley, id, 1, deletedAt)).toBeLessThan(1_200);
      await threadsEnd(worker.pid, parsing);
      expect(await parley.core.store.datasources.listChunks(ws.id, id, { offset: 0, limit: 1 })).toEqual([]);
    });
  });
});
