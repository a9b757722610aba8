import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatasourceBody, DatastoreBody } from '../support/bodies.js';
import { ingestJobs, uploadFile, waitForDatasource } from '../support/datasources.js';
import { writeLongReport } from '../support/long-report.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { until } from '../support/until.js';
import { STORE_KINDS } from '../support/stores.js';

/**
 * How long another workspace's one-line text may take to be indexed: a parse thread to start and one chunk to
 * embed. 3 to 7 s were measured with the test suite's two cores busy (the other workspace's parses take both);
 * before, it waited for the other workspace's documents, minutes.
 */
const ONE_LINE_MS = 15_000;

interface Tenant extends Workspace {
  datastoreId: string;
}

async function newTenant(parley: TestParley): Promise<Tenant> {
  const workspace = await parley.newWorkspace();
  const datastore = await parley.call<DatastoreBody>('POST', '/datastores', { key: workspace.key, body: {} });
  return { ...workspace, datastoreId: datastore.body.id };
}

async function uploadBytes(parley: TestParley, tenant: Tenant, name: string, text: string): Promise<string> {
  const created = await uploadFile<DatasourceBody>(parley, {
    key: tenant.key,
    datastoreId: tenant.datastoreId,
    file: { name, bytes: Buffer.from(text) },
  });
  expect(created.status).toBe(200);
  return created.body.id;
}

async function addText(parley: TestParley, tenant: Tenant, text: string): Promise<string> {
  const created = await parley.call<DatasourceBody>('POST', '/datasources', {
    key: tenant.key,
    body: { type: 'text', datastoreId: tenant.datastoreId, text },
  });
  expect(created.status).toBe(200);
  return created.body.id;
}

/** The ingest jobs of `id` once none runs: a job ends in a write of its own, just after its datasource settles. */
const endedJobs = (parley: TestParley, id: string) =>
  until(
    () => ingestJobs(parley, id),
    (jobs) => jobs.every((job) => job.status !== 'running'),
  );

/** Milliseconds from now until `id` is synched; fails after `withinMs`. */
async function msUntilSynched(parley: TestParley, tenant: Tenant, id: string, withinMs: number): Promise<number> {
  const started = Date.now();
  const datasource = await waitForDatasource(parley, tenant.key, id, { timeoutMs: withinMs });
  expect(datasource, JSON.stringify(datasource)).toMatchObject({ status: 'synched' });
  return Date.now() - started;
}

describe.each(STORE_KINDS)('ingestion shared between workspaces on %s', (kind) => {
  let dir: string;
  let report: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'parley-fairness-'));
    report = await writeLongReport(dir, 300);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  describe('with the default time budget', () => {
    let parley: TestParley;
    parleyTest.beforeAll(async ({ startParley }) => {
      parley = await startParley(kind, { workers: true, env: { PARLEY_EMBEDDINGS_THREADS: '1' } });
    });

    it("indexes another workspace's one-line text within seconds beside the report's Markdown of 200 KB of '['", async () => {
      const [a, b] = [await newTenant(parley), await newTenant(parley)];
      // This file held the only parse thread for about two minutes, and every other document waited behind it.
      const brackets = await uploadBytes(parley, a, 'brackets.md', `# Notes\n\nThe notes begin here.\n\n${'['.repeat(200_000)} and end here.`);
      await waitForDatasource(parley, a.key, brackets, { until: new Set(['running', 'synched']) });
      const line = await addText(parley, b, 'The shop opens at nine on weekdays.');
      expect(await msUntilSynched(parley, b, line, ONE_LINE_MS)).toBeLessThan(ONE_LINE_MS);
      await msUntilSynched(parley, a, brackets, 30_000);
    }, 60_000);

    it("indexes another workspace's one-line text while one workspace's slow documents fill every job slot", async () => {
      const [a, b] = [await newTenant(parley), await newTenant(parley)];
      // PARLEY_WORKER_CONCURRENCY is 2: two reports of several seconds' parsing (and a minute's embedding) take both.
      // The same report twice, two datasources on purpose.
      const reports = [
        await uploadFile<DatasourceBody>(parley, { key: a.key, datastoreId: a.datastoreId, file: report }),
        await uploadFile<DatasourceBody>(parley, { key: a.key, datastoreId: a.datastoreId, file: report, onDuplicate: 'keep_both' }),
      ].map((created) => created.body.id);
      for (const id of reports) await waitForDatasource(parley, a.key, id, { until: new Set(['running']) });
      try {
        const line = await addText(parley, b, 'Deliveries arrive on Tuesdays.');
        expect(await msUntilSynched(parley, b, line, ONE_LINE_MS)).toBeLessThan(ONE_LINE_MS);
        for (const id of reports) {
          expect((await parley.call<DatasourceBody>('GET', `/datasources/${id}`, { key: a.key })).body.status).toBe('running');
        }
      } finally {
        for (const id of reports) await parley.call('DELETE', `/datasources/${id}`, { key: a.key });
      }
    }, 60_000);

    it('indexes a page of 50,000 nested elements in one attempt', async () => {
      const a = await newTenant(parley);
      const depth = 50_000;
      const page = await uploadBytes(
        parley,
        a,
        'nested.html',
        `<html><body>${'<div>'.repeat(depth)}<p>Found at the bottom.</p>${'</div>'.repeat(depth)}</body></html>`,
      );
      await msUntilSynched(parley, a, page, 30_000);
      expect(await endedJobs(parley, page)).toMatchObject([{ status: 'done', attempts: 1 }]);
    }, 60_000);
  });

  describe('with a time budget of one second', () => {
    let parley: TestParley;
    parleyTest.beforeAll(async ({ startParley }) => {
      parley = await startParley(kind, { workers: true, env: { PARLEY_PARSE_SECONDS: '1', PARLEY_EMBEDDINGS_THREADS: '1' } });
    });

    it('ends a document that takes longer in error, with the reason, after one attempt', async () => {
      const a = await newTenant(parley);
      const started = Date.now();
      const created = await uploadFile<DatasourceBody>(parley, { key: a.key, datastoreId: a.datastoreId, file: report });
      const datasource = await waitForDatasource(parley, a.key, created.body.id, { timeoutMs: 20_000 });
      expect(datasource).toMatchObject({
        status: 'error',
        error: 'Reading the document took over 1 second, the most Parley gives one document; split it into smaller documents',
      });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await endedJobs(parley, created.body.id)).toMatchObject([{ status: 'failed', attempts: 1 }]);
    });
  });
});
