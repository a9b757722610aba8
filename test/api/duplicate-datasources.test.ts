import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { chunkTexts, uploadFile, waitForDatasource } from '../support/datasources.js';
import { closeServer, listenOnLoopback } from '../support/loopback-server.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import type { DatasourceBody, DatastoreBody, ErrorBody } from '../support/bodies.js';
import type { OnDuplicateChoice } from '../../src/contract/datasources.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const HOURS = bytes('The bakery opens at seven in the morning and closes at six in the evening.\n');

/** No silent duplicates: a file, a text or a URL the datastore holds already is named, and a person chooses. */
describe.each(STORE_KINDS)('duplicate datasources on %s', (kind) => {
  let parley: TestParley;
  let ws: Workspace;
  let site: http.Server;
  let siteUrl: string;

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind, { workers: true });
    ws = await parley.newWorkspace();
    site = http.createServer((request, response) =>
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<html><body><main><h1>${request.url}</h1><p>Cakes are baked fresh every morning at this address.</p></main></body></html>`),
    );
    siteUrl = await listenOnLoopback(site);
  });
  afterAll(() => closeServer(site));

  const newDatastore = async (workspace: Workspace = ws) =>
    (await parley.call<DatastoreBody>('POST', '/datastores', { key: workspace.key, body: { name: 'dupes' } })).body.id;
  const list = async (datastoreId: string, workspace: Workspace = ws) =>
    (await parley.call<DatasourceBody[]>('GET', `/datastores/${datastoreId}/datasources`, { key: workspace.key })).body;
  const upload = <T = DatasourceBody>(datastoreId: string, name: string, content: Uint8Array, onDuplicate?: OnDuplicateChoice, workspace = ws) =>
    uploadFile<T>(parley, { key: workspace.key, datastoreId, file: { name, bytes: content }, onDuplicate });
  const addText = <T = DatasourceBody>(datastoreId: string, text: string, onDuplicate?: OnDuplicateChoice) =>
    parley.call<T>('POST', '/datasources', { key: ws.key, body: { type: 'text', datastoreId, text, ...(onDuplicate && { onDuplicate }) } });
  const addPage = <T = DatasourceBody>(datastoreId: string, url: string, onDuplicate?: OnDuplicateChoice) =>
    parley.call<T>('POST', '/datasources', {
      key: ws.key,
      body: { type: 'web_page', datastoreId, config: { source_url: url }, ...(onDuplicate && { onDuplicate }) },
    });

  it('answers the same file sent twice with the datasource that holds it, named, and adds nothing', async () => {
    const datastoreId = await newDatastore();
    const first = await upload(datastoreId, 'hours.txt', HOURS);
    expect(first.status).toBe(200);
    expect(first.body).not.toHaveProperty('duplicateOf');
    expect(first.headers.get('parley-duplicate-of')).toBeNull();
    // Another name, the same bytes: the datastore holds this content already.
    const again = await upload(datastoreId, 'opening-hours.txt', HOURS);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, name: 'hours.txt', duplicateOf: first.body.id });
    expect(again.headers.get('parley-duplicate-of')).toBe(first.body.id);
    expect((await list(datastoreId)).map((datasource) => datasource.id)).toEqual([first.body.id]);
  });

  it('refuses it with 409 DUPLICATE_DATASOURCE naming the datasource, when asked to', async () => {
    const datastoreId = await newDatastore();
    const first = await upload(datastoreId, 'hours.txt', HOURS);
    const refused = await upload<ErrorBody>(datastoreId, 'copy.txt', HOURS, 'reject');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      error: 'DUPLICATE_DATASOURCE',
      existing: { id: first.body.id, name: 'hours.txt', type: 'file' },
      details: [{ field: 'body.file', message: `is already held by datasource ${first.body.id}` }],
    });
    expect(refused.body.message).toContain('“hours.txt”');
    expect(await list(datastoreId)).toHaveLength(1);
    // Content the datastore does not hold is added, `reject` or not.
    expect((await upload(datastoreId, 'other.txt', bytes('Bread is sold out by noon.'), 'reject')).status).toBe(200);
  });

  it('keeps both when asked to, the new one still naming the older', async () => {
    const datastoreId = await newDatastore();
    const first = await upload(datastoreId, 'hours.txt', HOURS);
    const second = await upload(datastoreId, 'hours copy.txt', HOURS, 'keep_both');
    expect(second.status).toBe(200);
    expect(second.body.id).not.toBe(first.body.id);
    expect(second.body).toMatchObject({ name: 'hours copy.txt', status: 'unsynched', duplicateOf: first.body.id });
    expect((await list(datastoreId)).map((datasource) => datasource.id).sort()).toEqual([first.body.id, second.body.id].sort());
  });

  it('replaces a document of the same name with new bytes: same id, indexed again with the new content', async () => {
    const datastoreId = await newDatastore();
    const first = await upload(datastoreId, 'policy.txt', bytes('Refunds are given within fourteen days.'));
    await waitForDatasource(parley, ws.key, first.body.id);
    expect((await chunkTexts(parley, ws.key, first.body.id)).join(' ')).toContain('fourteen');
    const newer = bytes('Refunds are given within thirty days of purchase.');
    const replaced = await upload(datastoreId, 'policy.txt', newer, 'replace');
    expect(replaced.status).toBe(200);
    // Not the same content: nothing held it, so nothing is named; the name found the document.
    expect(replaced.body).toMatchObject({ id: first.body.id, name: 'policy.txt', status: 'pending', size: newer.length });
    expect(replaced.body).not.toHaveProperty('duplicateOf');
    const done = await waitForDatasource(parley, ws.key, first.body.id);
    expect(done.status).toBe('synched');
    const text = (await chunkTexts(parley, ws.key, first.body.id)).join(' ');
    expect(text).toContain('thirty days');
    expect(text).not.toContain('fourteen');
    expect(await list(datastoreId)).toHaveLength(1);
    // Its new bytes are what it is known by now.
    expect((await upload(datastoreId, 'policy v2.txt', newer)).body).toMatchObject({ id: first.body.id, duplicateOf: first.body.id });
    expect((await upload(datastoreId, 'policy v1.txt', bytes('Refunds are given within fourteen days.'))).body.id).not.toBe(first.body.id);
  });

  it('replaces with the same bytes: the datasource holding them is indexed again under the same id and the new name', async () => {
    const datastoreId = await newDatastore();
    const first = await upload(datastoreId, 'hours.txt', HOURS);
    const synched = await waitForDatasource(parley, ws.key, first.body.id);
    const replaced = await upload(datastoreId, 'Opening hours.txt', HOURS, 'replace');
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id: first.body.id, name: 'Opening hours.txt', status: 'pending', duplicateOf: first.body.id });
    const done = await waitForDatasource(parley, ws.key, first.body.id);
    expect(done.status).toBe('synched');
    expect(done.lastSynch! > synched.lastSynch!).toBe(true);
    expect((await chunkTexts(parley, ws.key, first.body.id)).join(' ')).toContain('opens at seven');
    expect(await list(datastoreId)).toHaveLength(1);
  });

  it('replacing what the datastore does not hold adds it', async () => {
    const datastoreId = await newDatastore();
    const added = await upload(datastoreId, 'new.txt', HOURS, 'replace');
    expect(added.status).toBe(200);
    expect(added.body).not.toHaveProperty('duplicateOf');
    expect(await list(datastoreId)).toHaveLength(1);
  });

  it('finds the same text sent twice, and a file with the same bytes as a text', async () => {
    const datastoreId = await newDatastore();
    const first = await addText(datastoreId, 'Gift cards never expire.');
    expect(first.status).toBe(200);
    const again = await addText(datastoreId, 'Gift cards never expire.');
    expect(again.body).toMatchObject({ id: first.body.id, duplicateOf: first.body.id });
    expect(again.headers.get('parley-duplicate-of')).toBe(first.body.id);
    const refused = await addText<ErrorBody>(datastoreId, 'Gift cards never expire.', 'reject');
    expect([refused.status, refused.body.error, refused.body.details?.[0]?.field]).toEqual([409, 'DUPLICATE_DATASOURCE', 'body.text']);
    const asFile = await upload(datastoreId, 'gift-cards.txt', bytes('Gift cards never expire.'));
    expect(asFile.body).toMatchObject({ id: first.body.id, type: 'text' });
    // One character more is other content.
    expect((await addText(datastoreId, 'Gift cards never expire!')).body.id).not.toBe(first.body.id);
    expect(await list(datastoreId)).toHaveLength(2);
  });

  it('finds the same URL however it is written, and tells other pages apart', async () => {
    const datastoreId = await newDatastore();
    const first = await addPage(datastoreId, `${siteUrl}/menu?lang=en&size=large`);
    expect(first.status).toBe(200);
    const spelledOtherwise = `${siteUrl.replace('http://', 'HTTP://')}/menu/?size=large&utm_source=news&lang=en&fbclid=abc#cakes`;
    const again = await addPage(datastoreId, spelledOtherwise);
    expect(again.body).toMatchObject({ id: first.body.id, duplicateOf: first.body.id });
    const refused = await addPage<ErrorBody>(datastoreId, spelledOtherwise, 'reject');
    expect([refused.status, refused.body.error, refused.body.details?.[0]?.field]).toEqual([409, 'DUPLICATE_DATASOURCE', 'body.config.source_url']);
    expect(refused.body.message).toContain('already holds this page');
    for (const other of [`${siteUrl}/menu?lang=fr&size=large`, `${siteUrl}/Menu?lang=en&size=large`, `${siteUrl}/menu`]) {
      expect((await addPage(datastoreId, other)).body, other).not.toHaveProperty('duplicateOf');
    }
    expect(await list(datastoreId)).toHaveLength(4);
    // Replace fetches the page again, under its id, with the name sent.
    const replaced = await parley.call<DatasourceBody>('POST', '/datasources', {
      key: ws.key,
      body: { type: 'web_page', datastoreId, name: 'Menu', config: { source_url: spelledOtherwise }, onDuplicate: 'replace' },
    });
    expect(replaced.body).toMatchObject({ id: first.body.id, name: 'Menu', status: 'pending', duplicateOf: first.body.id });
    expect((await waitForDatasource(parley, ws.key, first.body.id)).status).toBe('synched');
  });

  it('never takes another datastore’s or another workspace’s content for a duplicate, nor names it', async () => {
    const here = await newDatastore();
    const elsewhere = await newDatastore();
    const other = await parley.newWorkspace();
    const theirs = await newDatastore(other);
    const mine = await upload(here, 'hours.txt', HOURS);
    const url = `${siteUrl}/shared`;
    const myPage = await addPage(here, url);
    for (const [datastoreId, workspace] of [
      [elsewhere, ws],
      [theirs, other],
    ] as const) {
      const file = await upload(datastoreId, 'hours.txt', HOURS, 'reject', workspace);
      const page = await parley.call<DatasourceBody>('POST', '/datasources', {
        key: workspace.key,
        body: { type: 'web_page', datastoreId, config: { source_url: url }, onDuplicate: 'reject' },
      });
      for (const added of [file, page]) {
        expect(added.status).toBe(200);
        expect(added.body).not.toHaveProperty('duplicateOf');
        expect(added.headers.get('parley-duplicate-of')).toBeNull();
        expect([mine.body.id, myPage.body.id]).not.toContain(added.body.id);
        expect(JSON.stringify(added.body)).not.toContain(mine.body.id);
      }
    }
    expect(await list(theirs, other)).toHaveLength(2);
    expect(await list(here)).toHaveLength(2);
  });

  it('refuses an unknown onDuplicate with 400 naming the field', async () => {
    const datastoreId = await newDatastore();
    const refused = await upload<ErrorBody>(datastoreId, 'hours.txt', HOURS, 'merge' as OnDuplicateChoice);
    expect([refused.status, refused.body.error, refused.body.details?.[0]?.field]).toEqual([400, 'INVALID_REQUEST', 'body.onDuplicate']);
  });
});
