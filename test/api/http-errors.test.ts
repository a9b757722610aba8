import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { startTestParley, type TestParley, type Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import type { AgentBody, ErrorBody, HealthBody } from '../support/bodies.js';

/** A raw request, for what fetch refuses to send (a body on GET). */
function rawRequest<T>(url: string, method: string, headers: Record<string, string>, body: string) {
  return new Promise<{ status: number; body: T }>((resolve, reject) => {
    const request = http.request(url, { method, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe.each(STORE_KINDS)('HTTP conventions on %s', (kind) => {
  let parley: TestParley;
  let ws: Workspace;

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind, { env: { PARLEY_BODY_LIMIT_MB: '0.01' } });
    ws = await parley.newWorkspace();
  });

  it('answers JSON 404 with a request id for an unknown route', async () => {
    const response = await parley.call<ErrorBody>('GET', '/no/such/route', { key: ws.key });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ error: 'NOT_FOUND', requestId: expect.any(String) });
    expect(response.headers.get('x-request-id')).toBe(response.body.requestId);
  });

  it('answers 400 INVALID_REQUEST for malformed JSON', async () => {
    const response = await parley.call<ErrorBody>('POST', '/agents', {
      key: ws.key,
      raw: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('INVALID_REQUEST');
    expect(response.body.message).toMatch(/not valid JSON/);
  });

  it('answers 413 PAYLOAD_TOO_LARGE for a body over the limit', async () => {
    const response = await parley.call<ErrorBody>('POST', '/agents', { key: ws.key, body: { description: 'x'.repeat(20_000) } });
    expect(response.status).toBe(413);
    expect(response.body.error).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers 415 UNSUPPORTED_MEDIA_TYPE for a body it cannot read', async () => {
    const response = await parley.call<ErrorBody>('POST', '/agents', {
      key: ws.key,
      raw: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(415);
    expect(response.body.error).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('ignores {} or an empty JSON body on GET and DELETE', async () => {
    const agent = (await parley.call<AgentBody>('POST', '/agents', { key: ws.key, body: {} })).body;
    const headers = { authorization: `Bearer ${ws.key}`, 'content-type': 'application/json' };
    for (const body of ['{}', '']) {
      const got = await rawRequest<AgentBody>(`${parley.url}/agents/${agent.id}`, 'GET', headers, body);
      expect(got.status).toBe(200);
      expect(got.body.id).toBe(agent.id);
      const listed = await rawRequest(`${parley.url}/datastores`, 'GET', headers, body);
      expect(listed.status).toBe(200);
    }
    const deleted = await parley.call('DELETE', `/agents/${agent.id}`, {
      key: ws.key,
      raw: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(deleted.status).toBe(200);
  });

  it('reads the bearer scheme case-insensitively and refuses other schemes', async () => {
    const lower = await parley.call('GET', '/agents', { headers: { authorization: `bearer ${ws.key}` } });
    expect(lower.status).toBe(200);
    const basic = await parley.call<ErrorBody>('GET', '/agents', { headers: { authorization: `Basic ${ws.key}` } });
    expect(basic.status).toBe(401);
    expect(basic.body.error).toBe('UNAUTHORIZED');
  });

  it('answers 500 INTERNAL without internals, and readyz 503, when the store is gone', async () => {
    const broken = await startTestParley(kind);
    const brokenWs = await broken.newWorkspace();
    await broken.core.store.close();
    try {
      const response = await broken.call<ErrorBody>('GET', '/agents', { key: brokenWs.key });
      expect(response.status).toBe(500);
      expect(response.body.error).toBe('INTERNAL');
      expect(response.body.requestId).toEqual(expect.any(String));
      expect(JSON.stringify(response.body)).not.toMatch(/\.ts|\.js|at |stack|sqlite|pool/i);
      const ready = await broken.call<ErrorBody>('GET', '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body.error).toBe('UNAVAILABLE');
    } finally {
      await broken.app.close();
      await broken.scratch.drop();
    }
  });

  it('has health and readiness probes without a key', async () => {
    expect((await parley.call<HealthBody>('GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await parley.call<HealthBody>('GET', '/readyz')).body).toEqual({ status: 'ready' });
  });
});
