import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, uploadFile, waitForDatasource } from '../support/datasources.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.js';
import { docxBomb, paragraphs } from '../support/zip-bombs.js';
import type { DatasourceBody, DatastoreBody } from '../support/bodies.js';

const MiB = 1024 * 1024;

/** One million columns in 14.8 MB: a header row and one row of numbers. */
function wideCsv(): Uint8Array {
  const columns = Array.from({ length: 1_000_000 }, (_, i) => i);
  return Buffer.from(`${columns.map((i) => `c${i}`).join(',')}\n${columns.join(',')}\n`);
}

/**
 * The hostile uploads of the report that led here, each with the reason it must end in and how long it may
 * take. Each used gigabytes (1 GB, 3.8 GB five times over, 3.7 GB, 2.4 GB) and the CSV a quarter of an hour.
 */
const BOMBS: ReadonlyArray<{ name: string; file: string; bytes: () => Uint8Array; reason: RegExp; withinMs: number }> = [
  {
    name: 'a 1 MB DOCX holding a 1 GiB XML part',
    file: 'gigabyte-part.docx',
    bytes: () => docxBomb(paragraphs('a'.repeat(MiB - 36), 1), 1024),
    reason: /^The DOCX file expands to 1,024 MB when unzipped, more than Parley reads \(at most 200 MB\)/,
    withinMs: 5_000,
  },
  {
    name: 'a 0.9 MB DOCX of 300 MB of tiny paragraphs, its size understated',
    file: 'tiny-paragraphs.docx',
    bytes: () => docxBomb(paragraphs('a', 30_000), 286, 100 * MiB),
    reason: /^The DOCX file has over 500,000 XML elements .*\(at most 500,000 in one DOCX file\)/,
    withinMs: 5_000,
  },
  {
    name: 'a 0.4 MB DOCX inflating to 400 MB, claiming 40 KB',
    file: 'understated.docx',
    bytes: () => docxBomb(paragraphs('a'.repeat(MiB - 36), 1), 400, 40_000),
    reason: /^The file is damaged or not a valid DOCX file$/,
    withinMs: 5_000,
  },
  {
    name: 'a 14.8 MB CSV of one million columns',
    file: 'wide.csv',
    bytes: wideCsv,
    reason: /^The document has a row of 1,000,000 columns, more than Parley reads \(at most 16,384 columns\)/,
    withinMs: 30_000,
  },
];

describe.each(STORE_KINDS)('hostile documents on %s', (kind) => {
  let parley: TestParley;
  let worker: WorkerProcess;
  let ws: Workspace;
  let datastoreId: string;
  let baselineMb: number;

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind);
    worker = await startWorkerProcess({ ...parley.scratch.env, PARLEY_EMBEDDINGS_THREADS: '1' });
    ws = await parley.newWorkspace();
    datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: {} })).body.id;
    // A real document first, so the parse thread and the embedding model are up when the baseline is taken.
    const real = await uploadFile<DatasourceBody>(parley, { key: ws.key, datastoreId, file: path.join(FIXTURES, 'docx-summer-activities.docx') });
    expect((await waitForDatasource(parley, ws.key, real.body.id, { timeoutMs: 120_000 })).status).toBe('synched');
    baselineMb = worker.peakRssMb();
  });
  afterAll(async () => {
    await worker.stop();
  });

  it.each(BOMBS)('ends $name in error at once, attempted once, with bounded memory', async ({ file, bytes, reason, withinMs }) => {
    const uploadedAt = Date.now();
    const created = await uploadFile<DatasourceBody>(parley, { key: ws.key, datastoreId, file: { name: file, bytes: bytes() } });
    expect(created.status).toBe(200);
    const done = await waitForDatasource(parley, ws.key, created.body.id, { timeoutMs: 60_000 });
    expect(Date.now() - uploadedAt).toBeLessThan(withinMs);
    expect(done).toMatchObject({ status: 'error', nbChunks: 0 });
    expect(done.error).toMatch(reason);
    const jobs = (await parley.core.store.jobs.list({ kind: 'ingest-datasource' })).filter((job) => job.payload.datasourceId === created.body.id);
    expect(jobs).toMatchObject([{ status: 'failed', attempts: 1 }]);
    expect(worker.peakRssMb() - baselineMb).toBeLessThan(400);
  });
});
