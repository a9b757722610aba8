import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, chunkTexts, uploadFile, waitForDatasource } from '../support/datasources.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import { detailFields, undeclared, type ChunkBody, type DatasourceBody, type DatastoreBody, type ErrorBody } from '../support/bodies.js';

const normalise = (text: string) => text.replace(/\s+/g, ' ');

/** Each fixture with a phrase its text must contain once indexed. */
const FIXTURE_TEXT: ReadonlyArray<[file: string, phrase: string]> = [
  ['pdf-memo-1p.pdf', '20,000 bottles'],
  ['pdf-word-processor-history-5p.pdf', 'word processor'],
  ['pdf-arxiv-layoutparser-2p.pdf', 'LayoutParser'],
  ['pdf-arxiv-otsl-page9-table.pdf', 'Hyper Parameter Optimization'],
  ['docx-summer-activities.docx', 'Swimming in the lake'],
  ['pptx-sample-deck.pptx', 'Test Table Slide'],
  ['html-wikipedia-duck.html', 'duck'],
  ['md-ibm-wiki.md', 'International Business Machines Corporation'],
  ['csv-customers-comma.csv', 'Lozano, Dr'],
  ['txt-utf16le-bom.txt', 'This is a test document to use for unit tests.'],
  ['txt-war-and-peace-ch1.txt', 'so Genoa and Lucca are now just family estates'],
  ['txt-udhr-article1-multilingual.txt', 'All human beings are born free and equal in dignity and rights'],
];

describe.each(STORE_KINDS)('datasources on %s', (kind) => {
  let parley: TestParley;
  let ws: Workspace;
  let datastoreId: string;
  let site: http.Server;
  let siteUrl: string;
  let page =
    '<html><head><title>Opening hours</title></head><body><main><h1>Opening hours</h1><p>The shop opens at nine o’clock every weekday and closes at six.</p></main></body></html>';

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind, { workers: true, env: { PARLEY_MAX_UPLOAD_MB: '2' } });
    ws = await parley.newWorkspace();
    datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: { name: 'docs' } })).body.id;
    site = http.createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(page));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/hours`;
  });
  afterAll(async () => {
    site.close();
  });

  // Reading a format is the same on every store: the second one stores the chunks of a PDF and of a long text.
  it.each(kind === STORE_KINDS[0] ? FIXTURE_TEXT : FIXTURE_TEXT.filter(([file]) => file === 'pdf-memo-1p.pdf' || file.startsWith('txt-war')))(
    'ingests %s until synched, its text findable in the chunks',
    async (file, phrase) => {
      const created = await uploadFile<DatasourceBody>(parley, { key: ws.key, datastoreId, file: path.join(FIXTURES, file), customId: `fx-${file}` });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({ status: 'unsynched', name: file, type: 'file', datastoreId, custom_id: `fx-${file}` });
      const done = await waitForDatasource(parley, ws.key, created.body.id, { timeoutMs: 170_000 });
      expect(done).toMatchObject({ status: 'synched', progress: 1, error: null });
      expect(done.nbChunks).toBeGreaterThan(0);
      expect(done.textSize).toBeGreaterThan(0);
      const texts = await chunkTexts(parley, ws.key, created.body.id);
      expect(texts).toHaveLength(done.nbChunks);
      expect(normalise(texts.join(' ')).toLowerCase()).toContain(phrase.toLowerCase());
    },
    180_000,
  );

  it('keeps PDF page numbers on the chunks', async () => {
    const created = await uploadFile<DatasourceBody>(parley, {
      key: ws.key,
      datastoreId,
      file: path.join(FIXTURES, 'pdf-word-processor-history-5p.pdf'),
    });
    const done = await waitForDatasource(parley, ws.key, created.body.id);
    expect(done.totalPages).toBe(5);
    const { body } = await parley.call<ChunkBody[]>('GET', `/datasources/${created.body.id}/chunks`, { key: ws.key });
    const pages = new Set(body.flatMap((chunk) => chunk.page_number ?? []));
    expect(pages.has(1)).toBe(true);
    expect(Math.max(...pages)).toBeGreaterThanOrEqual(4);
  });

  it('ends a password-protected PDF in error with a message a person understands', async () => {
    const created = await uploadFile<DatasourceBody>(parley, { key: ws.key, datastoreId, file: path.join(FIXTURES, 'pdf-password-protected.pdf') });
    expect(created.status).toBe(200);
    const done = await waitForDatasource(parley, ws.key, created.body.id);
    expect(done.status).toBe('error');
    expect(done.error).toMatch(/password/i);
    expect(done.error).not.toMatch(/\bat \S+\.(js|ts)|Exception:/);
    expect(done.nbChunks).toBe(0);
  });

  it('sniffs the kind from the content, not the name, and takes type-less multipart from older clients', async () => {
    const created = await uploadFile<DatasourceBody>(parley, {
      key: ws.key,
      datastoreId,
      file: path.join(FIXTURES, 'pdf-memo-1p.pdf'),
      fileName: 'memo.txt',
      omitType: true,
      // The memo was ingested above: this is a second copy on purpose.
      onDuplicate: 'keep_both',
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'memo.txt', mimeType: 'application/pdf' });
    expect((await waitForDatasource(parley, ws.key, created.body.id)).status).toBe('synched');
  });

  it('refuses an executable with 415 and stores nothing', async () => {
    const elf = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...new Array(200).fill(0)]);
    const before = (await parley.call<DatasourceBody[]>('GET', `/datastores/${datastoreId}/datasources`, { key: ws.key })).body.length;
    const refused = await uploadFile<ErrorBody>(parley, { key: ws.key, datastoreId, file: { name: 'tool.pdf', bytes: elf } });
    expect(refused.status).toBe(415);
    expect(refused.body.error).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect((await parley.call('GET', `/datastores/${datastoreId}/datasources`, { key: ws.key })).body).toHaveLength(before);
  });

  it('refuses an upload over the size limit with 413', async () => {
    const big = new Uint8Array(3 * 1024 * 1024).fill(0x61);
    const refused = await uploadFile<ErrorBody>(parley, { key: ws.key, datastoreId, file: { name: 'big.txt', bytes: big } });
    expect(refused.status).toBe(413);
    expect(refused.body.error).toBe('PAYLOAD_TOO_LARGE');
  });

  it('ingests JSON text datasources', async () => {
    const created = await parley.call<DatasourceBody>('POST', '/datasources', {
      key: ws.key,
      body: {
        type: 'text',
        datastoreId,
        name: 'Returns policy',
        text: 'Returns are accepted within 30 days of purchase with a receipt.',
        custom_id: 'policy-7',
      },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ type: 'text', name: 'Returns policy', status: 'unsynched', custom_id: 'policy-7' });
    const done = await waitForDatasource(parley, ws.key, created.body.id);
    expect(done.status).toBe('synched');
    expect(await chunkTexts(parley, ws.key, created.body.id)).toEqual([expect.stringContaining('Returns are accepted within 30 days')]);
  });

  it('fetches a web page, keeps its main text, and a resync picks up changed content', async () => {
    const created = await parley.call<DatasourceBody>('POST', '/datasources', {
      key: ws.key,
      body: { type: 'web_page', datastoreId, config: { source_url: siteUrl } },
    });
    expect(created.status).toBe(200);
    expect(undeclared(created.body.config, 'source_url')).toBe(siteUrl);
    await waitForDatasource(parley, ws.key, created.body.id);
    expect((await chunkTexts(parley, ws.key, created.body.id)).join(' ')).toContain('opens at nine');

    page = page.replace('nine', 'ten');
    const resynced = await parley.call<DatasourceBody>('POST', `/datasources/${created.body.id}/resync`, { key: ws.key });
    expect(resynced.status).toBe(200);
    expect(resynced.body.status).toBe('pending');
    const done = await waitForDatasource(parley, ws.key, created.body.id);
    expect(done.status).toBe('synched');
    const text = (await chunkTexts(parley, ws.key, created.body.id)).join(' ');
    expect(text).toContain('opens at ten');
    expect(text).not.toContain('opens at nine');
  });

  it('deletes a datasource while it is running without leaving chunks behind', async () => {
    const long = Array.from({ length: 400 }, (_, i) => `Paragraph ${i} talks about topic ${i % 17} in some detail.`).join('\n\n');
    const created = await parley.call<DatasourceBody>('POST', '/datasources', { key: ws.key, body: { type: 'text', datastoreId, text: long } });
    await waitForDatasource(parley, ws.key, created.body.id, { until: new Set(['running', 'synched']) });
    const deleted = await parley.call('DELETE', `/datasources/${created.body.id}`, { key: ws.key });
    expect(deleted.status).toBe(200);
    expect((await parley.call('GET', `/datasources/${created.body.id}`, { key: ws.key })).status).toBe(404);
    // The job notices at its next step, stops, and writes nothing.
    const deadline = Date.now() + 60_000;
    const unfinished = async () =>
      (await parley.core.store.jobs.list({ statuses: ['queued', 'running'] })).filter((job) => job.payload.datasourceId === created.body.id);
    while ((await unfinished()).length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await unfinished()).toEqual([]);
    expect(await parley.core.store.datasources.listChunks(ws.id, created.body.id, { offset: 0, limit: 10 })).toEqual([]);
    expect((await parley.call('GET', `/datasources/${created.body.id}`, { key: ws.key })).status).toBe(404);
  });

  it('lists a datastore’s datasources and removes them with the datastore', async () => {
    const store2 = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: {} })).body.id;
    const created = await parley.call<DatasourceBody>('POST', '/datasources', {
      key: ws.key,
      body: { type: 'text', datastoreId: store2, text: 'Short note.' },
    });
    await waitForDatasource(parley, ws.key, created.body.id);
    const listed = await parley.call<DatasourceBody[]>('GET', `/datastores/${store2}/datasources`, { key: ws.key });
    expect(listed.body.map((d) => d.id)).toEqual([created.body.id]);
    await parley.call('DELETE', `/datastores/${store2}`, { key: ws.key });
    expect((await parley.call('GET', `/datasources/${created.body.id}`, { key: ws.key })).status).toBe(404);
    expect(await parley.core.store.datasources.listChunks(ws.id, created.body.id, { offset: 0, limit: 10 })).toEqual([]);
  });

  it.each([
    ['no datastoreId', { type: 'text', text: 'x' }, 'body.datastoreId'],
    ['an unknown type', { type: 'video', datastoreId: 'x' }, 'body.type'],
    ['text without text', { type: 'text', datastoreId: 'x' }, 'body.text'],
    ['a web page without a URL', { type: 'web_page', datastoreId: 'x', config: {} }, 'body.config.source_url'],
    ['a file sent as JSON', { type: 'file', datastoreId: 'x', file: 'a.pdf' }, 'body.file'],
  ])('refuses %s with 400 naming the field', async (_label, body, field) => {
    const target = (body as { datastoreId?: string }).datastoreId === 'x' ? { ...body, datastoreId } : body;
    const response = await parley.call<ErrorBody>('POST', '/datasources', { key: ws.key, body: target });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('INVALID_REQUEST');
    expect(detailFields(response.body)).toContain(field);
  });

  it('answers 404 for an unknown datastore or datasource', async () => {
    const created = await parley.call('POST', '/datasources', { key: ws.key, body: { type: 'text', datastoreId: 'nope', text: 'x' } });
    expect(created.status).toBe(404);
    for (const [method, url] of [
      ['GET', '/datasources/nope'],
      ['DELETE', '/datasources/nope'],
      ['POST', '/datasources/nope/resync'],
      ['GET', '/datasources/nope/chunks'],
      ['GET', '/datastores/nope/datasources'],
    ] as const) {
      expect((await parley.call(method, url, { key: ws.key })).status).toBe(404);
    }
  });
});

describe.each(STORE_KINDS)('datasource limits on %s', (kind) => {
  let parley: TestParley;
  let ws: Workspace;
  let datastoreId: string;

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind, {
      workers: true,
      env: { PARLEY_QUOTA_CHARS: '200', PARLEY_OUTBOUND_ALLOW: 'public' },
    });
    ws = await parley.newWorkspace();
    datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: {} })).body.id;
  });

  it('stops at the stored-content quota with usage_limit_reached', async () => {
    const small = await parley.call<DatasourceBody>('POST', '/datasources', {
      key: ws.key,
      body: { type: 'text', datastoreId, text: 'A'.repeat(20) + ' fits.' },
    });
    expect((await waitForDatasource(parley, ws.key, small.body.id)).status).toBe('synched');
    const large = await parley.call<DatasourceBody>('POST', '/datasources', {
      key: ws.key,
      body: { type: 'text', datastoreId, text: 'Too much text here. '.repeat(20) },
    });
    const done = await waitForDatasource(parley, ws.key, large.body.id);
    expect(done.status).toBe('usage_limit_reached');
    expect(done.error).toMatch(/quota/);
    expect(done.nbChunks).toBe(0);
  });

  it.each(['http://127.0.0.1/', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/', 'http://localhost:8080/', 'ftp://example.com/x'])(
    'refuses to fetch %s',
    async (url) => {
      const response = await parley.call<ErrorBody>('POST', '/datasources', {
        key: ws.key,
        body: { type: 'web_page', datastoreId, config: { source_url: url } },
      });
      expect(response.status).toBe(400);
      expect(detailFields(response.body)[0]).toBe('body.config.source_url');
    },
  );
});
