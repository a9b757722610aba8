import { describe, expect, it } from 'vitest';
import type { ApiResponse, TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import { seedConversation } from './conversations-seed.js';
import {
  undeclared,
  type AgentBody,
  type DatasourceBody,
  type DatastoreBody,
  type ErrorBody,
  type PatchedConversationBody,
} from '../support/bodies.js';
import type { OpenApiDocument } from '../support/openapi.js';

const BOUNDARY = 'parley-sweep';
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;
const field = (name: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;

const filePart = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\n`;

/** The multipart bodies of the malformed-input sweep that answered 500, and their near relatives. */
const BROKEN_MULTIPART: ReadonlyArray<[what: string, contentType: string, body: string]> = [
  ['no boundary', 'multipart/form-data', field('datastoreId', 'x') + `--${BOUNDARY}--\r\n`],
  ['an empty boundary', 'multipart/form-data; boundary=', field('datastoreId', 'x')],
  ['an unterminated quoted boundary', 'multipart/form-data; boundary="parley', field('datastoreId', 'x')],
  ['a body cut mid-part', MULTIPART, `${field('type', 'file')}${filePart}hal`],
  ['a body cut in the part headers', MULTIPART, `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"`],
  ['no closing delimiter', MULTIPART, field('type', 'file') + field('datastoreId', 'x')],
  ['a part without headers', MULTIPART, `--${BOUNDARY}\r\n\r\n`],
  ['a part without headers, cut short', MULTIPART, `--${BOUNDARY}\r\n\r\nbare value`],
  [
    'a field declared JSON that is not',
    MULTIPART,
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="datastoreId"\r\nContent-Type: application/json\r\n\r\n{bad\r\n--${BOUNDARY}--\r\n`,
  ],
];

/** Nested objects, arrays, or both in turn, `depth` levels deep, written without recursion. */
function nested(depth: number, shape: 'object' | 'array' | 'mixed'): string {
  const opens: string[] = [];
  const closes: string[] = [];
  for (let level = 0; level < depth; level++) {
    const array = shape === 'array' || (shape === 'mixed' && level % 2 === 1);
    opens.push(array ? '[' : '{"a":');
    closes.push(array ? ']' : '}');
  }
  return opens.join('') + '1' + closes.reverse().join('');
}

/** What every refused request must look like: a 4xx JSON error naming no internals. */
function expectClientError(response: ApiResponse<ErrorBody>, status = 400) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.body).toMatchObject({ error: expect.any(String), message: expect.any(String), requestId: expect.any(String) });
  expect(JSON.stringify(response.body)).not.toMatch(/busboy|sqlite|datatype|RangeError|stack|node_modules|\.js\b/i);
}

describe.each(STORE_KINDS)('malformed input on %s', (kind) => {
  let parley: TestParley;
  let ws: Workspace;
  let datasourceId: string;
  let conversationId: string;

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind);
    ws = await parley.newWorkspace();
    const datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: { name: 'sweep' } })).body.id;
    datasourceId = (
      await parley.call<DatasourceBody>('POST', '/datasources', {
        key: ws.key,
        body: { type: 'text', datastoreId, text: 'Opening hours are nine to six.' },
      })
    ).body.id;
    conversationId = (await seedConversation(parley, ws.id)).id;
  });

  it.each(BROKEN_MULTIPART)('answers 400 for multipart with %s', async (_what, contentType, raw) => {
    const response = await parley.call<ErrorBody>('POST', '/datasources', { key: ws.key, raw, headers: { 'content-type': contentType } });
    expectClientError(response);
    expect(response.body.error).toBe('INVALID_REQUEST');
  });

  it.each(['1e309', '99999999999999999999', 'Infinity', '-1', '1.5', 'NaN', ''])('answers 400 naming the field for offset=%s', async (offset) => {
    const response = await parley.call<ErrorBody>('GET', `/datasources/${datasourceId}/chunks?offset=${offset}`, { key: ws.key });
    expectClientError(response);
    expect(response.body.details).toEqual([expect.objectContaining({ field: 'querystring.offset' })]);
  });

  it.each(['1e309', '99999999999999999999', 'Infinity', '0', '1.5'])('answers 400 naming the field for limit=%s', async (limit) => {
    for (const path of [`/datasources/${datasourceId}/chunks`, '/user-conversations']) {
      const response = await parley.call<ErrorBody>('GET', `${path}?limit=${limit}`, { key: ws.key });
      expectClientError(response);
      expect(response.body.details).toEqual([expect.objectContaining({ field: 'querystring.limit' })]);
    }
  });

  // `Infinity` and `1e309` pass Ajv's `integer` once coerced from text: only a maximum refuses them.
  it('bounds every numeric query parameter of every route on both sides', async () => {
    const document = (await parley.call<OpenApiDocument>('GET', '/openapi.json')).body;
    const numeric: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const operation of Object.values(operations ?? {})) {
        for (const parameter of operation?.parameters ?? []) {
          if (parameter.in !== 'query' || !['integer', 'number'].includes(parameter.schema.type ?? '')) continue;
          numeric.push(`${path} ${parameter.name}`);
          expect(parameter.schema, `${path} ${parameter.name}`).toMatchObject({ minimum: expect.any(Number), maximum: expect.any(Number) });
        }
      }
    }
    expect(numeric).toEqual(expect.arrayContaining(['/datasources/{id}/chunks offset', '/user-conversations limit']));
  });

  // Found by test/fuzz: the router refused these before any hook, with Fastify's own body (no code of ours, 414).
  it.each(['%E0%A4%A', '%', '%FF%FE'])('answers 400 JSON for the broken escape %s in a path', async (segment) => {
    const response = await parley.call<ErrorBody>('GET', `/agents/${segment}`, { key: ws.key });
    expectClientError(response);
    expect(response.body.error).toBe('INVALID_REQUEST');
  });

  it('takes ids as long as the Id schema allows, however they are encoded, and names the field past that', async () => {
    const longest = await parley.call<ErrorBody>('GET', `/agents/${encodeURIComponent('é'.repeat(200))}`, { key: ws.key });
    expectClientError(longest, 404);
    expect(longest.body.error).toBe('NOT_FOUND');
    const tooLong = await parley.call<ErrorBody>('GET', `/agents/${'x'.repeat(2_001)}`, { key: ws.key });
    expectClientError(tooLong);
    const overSchema = await parley.call<ErrorBody>('GET', `/agents/${'x'.repeat(201)}`, { key: ws.key });
    expectClientError(overSchema);
    expect(overSchema.body.details).toEqual([expect.objectContaining({ field: 'params.id' })]);
  });

  // Found by test/fuzz: PostgreSQL cannot hold U+0000 in text, so a NUL reached the store as a 500 there.
  it.each([
    ['params.id', 'GET', (): string => '/agents/a%00b', undefined],
    ['querystring.search', 'GET', (): string => '/user-conversations?search=%00', undefined],
    ['body.name', 'POST', (): string => '/datastores', { name: 'a\u0000b' }],
    ['body.metadata.note.1', 'PATCH', (): string => `/conversations/${conversationId}`, { metadata: { note: ['ok', 'a\u0000'] } }],
    ['body.metadata', 'PATCH', (): string => `/conversations/${conversationId}`, { metadata: { 'k\u0000': 1 } }],
  ] as const)('answers 400 naming %s for a NUL in it, on every store', async (field, method, path, body) => {
    const before = await parley.call<DatastoreBody[]>('GET', '/datastores', { key: ws.key });
    const response = await parley.call<ErrorBody>(method, path(), { key: ws.key, body });
    expectClientError(response);
    expect(response.body.details).toEqual([{ field, message: 'must not contain U+0000' }]);
    expect((await parley.call<DatastoreBody[]>('GET', '/datastores', { key: ws.key })).body).toEqual(before.body);
  });

  it('keeps a NUL written as text (an escaped backslash) in a body', async () => {
    const response = await parley.call<AgentBody>('POST', '/agents', {
      key: ws.key,
      raw: '{"name": "a\\\\u0000b"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(200);
    expect(response.body.name).toBe('a\\u0000b');
  });

  it('still pages chunks with in-range integers', async () => {
    const response = await parley.call('GET', `/datasources/${datasourceId}/chunks?offset=0&limit=500`, { key: ws.key });
    expect(response.status).toBe(200);
  });

  it.each([
    [5_000, 'object'],
    [5_000, 'array'],
    [5_000, 'mixed'],
    [100_000, 'object'],
    [100_000, 'mixed'],
  ] as const)('answers 400 quickly for metadata nested %i deep (%s)', async (depth, shape) => {
    const started = Date.now();
    const response = await parley.call<ErrorBody>('PATCH', `/conversations/${conversationId}`, {
      key: ws.key,
      raw: `{"metadata": ${nested(depth, shape)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expectClientError(response);
    expect(response.body.error).toBe('INVALID_REQUEST');
    expect(response.body.message).toMatch(/64 levels/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('keeps JSON nested up to the limit, brackets inside strings not counted', async () => {
    const metadata = JSON.parse(nested(62, 'mixed'));
    const response = await parley.call<PatchedConversationBody>('PATCH', `/conversations/${conversationId}`, {
      key: ws.key,
      body: { metadata: { deep: metadata, text: '[[[[{{{{'.repeat(20) } },
    });
    expect(response.status).toBe(200);
    expect(undeclared(response.body.metadata, 'deep')).toEqual(metadata);
  });
});
