import { describe, expect, it } from 'vitest';
import { MAX_NAME_LENGTH } from '../../src/domain/datasource-name.js';
import { uploadFile } from '../support/datasources.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import { undeclared, type DatasourceBody, type DatastoreBody, type ErrorBody } from '../support/bodies.js';

const TEXT = new TextEncoder().encode('Opening hours: nine to six on weekdays.\n');
/** Printable text only: no control, format (bidi, zero-width) or surrogate characters. */
const PRINTABLE = /^[^\p{Cc}\p{Cf}\p{Cs}]*$/u;

describe.each(STORE_KINDS)('datasource uploads on %s', (kind) => {
  let parley: TestParley;
  let ws: Workspace;
  let datastoreId: string;

  parleyTest.beforeAll(async ({ startParley }) => {
    // The default limits: a 1 MB JSON body, 50 MB uploads.
    parley = await startParley(kind);
    ws = await parley.newWorkspace();
    datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: { name: 'uploads' } })).body.id;
  });

  /** The name as answered by the POST and as stored, which must agree. */
  async function storedName(created: { status: number; body: DatasourceBody }): Promise<string> {
    expect(created.status).toBe(200);
    const stored = await parley.call<DatasourceBody>('GET', `/datasources/${created.body.id}`, { key: ws.key });
    expect(stored.body.name).toBe(created.body.name);
    expect(undeclared(stored.body.config, 'file_name') ?? stored.body.name).toBe(created.body.name);
    expect(created.body.name).toMatch(PRINTABLE);
    expect([...created.body.name].length).toBeLessThanOrEqual(MAX_NAME_LENGTH);
    return created.body.name;
  }

  // The same bytes under many names: each is a new datasource to name, not the first one found again.
  const upload = (name: string, fileName?: string) =>
    uploadFile<DatasourceBody>(parley, { key: ws.key, datastoreId, file: { name, bytes: TEXT }, fileName, onDuplicate: 'keep_both' });

  it('cuts a 10 KB file name to 500 characters, keeping the extension', async () => {
    const name = await storedName(await upload(`${'n'.repeat(10_240)}.txt`));
    expect(name).toBe(`${'n'.repeat(MAX_NAME_LENGTH - 4)}.txt`);
  });

  it.each([
    ['NUL', 'nul\u0000byte.txt', 'nulbyte.txt'],
    ['ANSI escapes', '\u001b[31mred\u001b[0m alert.txt', 'red alert.txt'],
    ['an RTL override', 'invoice\u202Etxt.exe.txt', 'invoicetxt.exe.txt'],
    ['zero-width characters', 'ze\u200Bro\u200D\uFEFF.txt', 'zero.txt'],
    ['C1 controls and DEL', 'a\u0085b\u009bc\u007f.txt', 'a b.txt'],
  ])('strips %s from the uploaded file name', async (_what, raw, expected) => {
    expect(await storedName(await upload(raw))).toBe(expected);
  });

  // CR/LF cannot reach the header's file name: the multipart parser drops such a part. The field can carry them.
  it('applies the same rule to the fileName field, falling back to the file name', async () => {
    expect(await storedName(await upload('file.txt', '\u001b[1mBold\r\nname\u202E.txt'))).toBe('Bold name.txt');
    expect(await storedName(await upload('from header.txt', '\u200B '))).toBe('from header.txt');
  });

  // The header's name comes from the client's file system and is cleaned; a field is what the client wrote.
  it('refuses NUL in the fileName field, as in every other field', async () => {
    const refused = await uploadFile<ErrorBody>(parley, {
      key: ws.key,
      datastoreId,
      file: { name: 'a.txt', bytes: TEXT },
      fileName: 'nul\u0000.txt',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([{ field: 'body.fileName', message: 'must not contain U+0000' }]);
  });

  it('names an upload whose name is all invisible "upload"', async () => {
    expect(await storedName(await upload('\u200B\u202E\u0007'))).toBe('upload');
  });

  it('applies the same rule to the name of a JSON text datasource', async () => {
    const created = await parley.call<DatasourceBody>('POST', '/datasources', {
      key: ws.key,
      body: { type: 'text', datastoreId, name: '\u001b]0;title\u0007Policy\r\n\u202Ev2', text: 'Returns within 30 days.' },
    });
    expect(await storedName(created)).toBe('Policy v2');
  });

  it.each([
    ['twice as `file`', 'file'],
    ['as `file` and another field', 'attachment'],
  ])('refuses two file parts (%s) with 400', async (_what, second) => {
    const form = new FormData();
    form.set('type', 'file');
    form.set('datastoreId', datastoreId);
    form.append('file', new Blob([TEXT]), 'one.txt');
    form.append(second, new Blob([TEXT]), 'two.txt');
    const response = await fetch(`${parley.url}/datasources`, { method: 'POST', headers: { authorization: `Bearer ${ws.key}` }, body: form });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body).toMatchObject({ error: 'INVALID_REQUEST', message: expect.stringMatching(/one file per request/i) });
  });

  it('refuses a 2 MB JSON body with 413 under the 1 MB JSON limit', async () => {
    const created = await parley.call<ErrorBody>('POST', '/datasources', {
      key: ws.key,
      body: { type: 'text', datastoreId, name: 'big', text: 'x'.repeat(2 * 1024 * 1024) },
    });
    expect(created.status).toBe(413);
    expect(created.body.error).toBe('PAYLOAD_TOO_LARGE');
  });

  it('still takes a 2 MB multipart upload, held to the upload limit instead', async () => {
    const line = 'The shop opens at nine and closes at six every weekday.\n';
    const bytes = new TextEncoder().encode(line.repeat(Math.ceil((2 * 1024 * 1024) / line.length)));
    const created = await uploadFile<DatasourceBody>(parley, { key: ws.key, datastoreId, file: { name: 'hours.txt', bytes } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'hours.txt', size: bytes.length });
  });
});
