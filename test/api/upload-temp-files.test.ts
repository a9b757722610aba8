import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { uploadFile } from '../support/datasources.js';
import { startTestParley, type TestParley, type Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { createScratchStore, STORE_KINDS } from '../support/stores.js';
import { until } from '../support/until.js';
import type { DatastoreBody, ErrorBody } from '../support/bodies.js';

const BOUNDARY = 'parley-upload-boundary';
/** The upload limit of these tests, and a file half as large again. */
const LIMIT_MB = 0.5;
const OVER_LIMIT = new Uint8Array(800_000).fill(120);

/** Parley's temporary folder under a data directory: where uploads are streamed before they join the blob store. */
const tempDirIn = (dataDir: string) => path.join(dataDir, 'tmp');

describe.each(STORE_KINDS)('temporary files of uploads on %s', (kind) => {
  let parley: TestParley;
  let ws: Workspace;
  let datastoreId: string;

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind, { env: { PARLEY_MAX_UPLOAD_MB: String(LIMIT_MB) } });
    ws = await parley.newWorkspace();
    datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: { name: 'uploads' } })).body.id;
  });

  const tempFiles = async () => new Set(await fs.readdir(tempDirIn(parley.config.dataDir)).catch(() => []));
  /** The files of the temporary folder that were not there `before`. */
  const added = async (before: Set<string>) => [...(await tempFiles())].filter((name) => !before.has(name));
  /** Runs `upload` and waits (briefly: the file goes as the response closes) until the folder is as it was. */
  async function leavesNothing(upload: (before: Set<string>) => Promise<void>): Promise<void> {
    const before = await tempFiles();
    await upload(before);
    await until(
      () => added(before),
      (names) => names.length === 0,
      3000,
    );
  }

  it.each([
    ['half of the file', 200_000, ''],
    ['the whole file, without the closing delimiter', 400_000, '\r\n'],
  ])('removes the file of an upload whose client disconnects after %s', async (_what, fileBytes, after) => {
    const fields = [
      `--${BOUNDARY}`,
      'Content-Disposition: form-data; name="type"',
      '',
      'file',
      `--${BOUNDARY}`,
      'Content-Disposition: form-data; name="datastoreId"',
      '',
      datastoreId,
      `--${BOUNDARY}`,
      'Content-Disposition: form-data; name="file"; filename="cut.txt"',
      'Content-Type: text/plain',
      '',
      '',
    ].join('\r\n');
    const body = `${fields}${'x'.repeat(400_000)}\r\n--${BOUNDARY}--\r\n`;
    await leavesNothing(async (before) => {
      const socket = net.connect(Number(new URL(parley.url).port), '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST /datasources HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ws.key}\r\n` +
          `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
      );
      socket.write(body.slice(0, fields.length + fileBytes) + after);
      // The server is streaming the file to disk when the client goes.
      await until(
        () => added(before),
        (names) => names.length === 1,
      );
      socket.destroy();
    });
  });

  it('removes the file of an upload over the size limit', async () => {
    await leavesNothing(async () => {
      const refused = await uploadFile<ErrorBody>(parley, { key: ws.key, datastoreId, file: { name: 'big.txt', bytes: OVER_LIMIT } });
      expect(refused.status).toBe(413);
    });
  });

  it('removes the file of an upload refused after it was streamed', async () => {
    const text = new TextEncoder().encode('Opening hours: nine to six.\n');
    await leavesNothing(async () => {
      // A second file part, a field the schema refuses, a datastore of nobody's, a type Parley cannot read.
      const form = new FormData();
      form.set('datastoreId', datastoreId);
      form.append('file', new Blob([text]), 'one.txt');
      form.append('file', new Blob([text]), 'two.txt');
      const twice = await fetch(`${parley.url}/datasources`, { method: 'POST', headers: { authorization: `Bearer ${ws.key}` }, body: form });
      expect(twice.status).toBe(400);
      const refusals = await Promise.all([
        uploadFile<ErrorBody>(parley, { key: ws.key, datastoreId, file: { name: 'a.txt', bytes: text }, fileName: 'n'.repeat(501) }),
        uploadFile<ErrorBody>(parley, { key: ws.key, datastoreId: 'ds_unknown', file: { name: 'a.txt', bytes: text } }),
        uploadFile<ErrorBody>(parley, { key: ws.key, datastoreId, file: { name: 'x.bin', bytes: new Uint8Array(1000) } }),
      ]);
      expect(refusals.map((refusal) => refusal.status)).toEqual([400, 404, 415]);
    });
  });
});

describe.each(STORE_KINDS)('the temporary folder at start on %s', (kind) => {
  it('removes files a crashed process left, and keeps those another process is still writing', async () => {
    const scratch = await createScratchStore(kind);
    const tempDir = tempDirIn(scratch.dataDir);
    await fs.mkdir(tempDir, { recursive: true });
    const orphan = path.join(tempDir, 'upload-left-by-a-crash');
    const inFlight = path.join(tempDir, 'upload-still-streaming');
    await fs.writeFile(orphan, 'half an upload');
    await fs.writeFile(inFlight, 'an upload under way');
    const hourAgo = new Date(Date.now() - 60 * 60_000);
    await fs.utimes(orphan, hourAgo, hourAgo);
    const parley = await startTestParley(kind, { scratch });
    try {
      expect(await fs.readdir(tempDir)).toEqual(['upload-still-streaming']);
    } finally {
      await parley.close();
      await scratch.drop();
    }
  });
});
