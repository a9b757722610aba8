import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import type http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestParley, type TestParley, type Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import { until } from '../support/until.js';

/** A self-signed certificate for 127.0.0.1, made for this test run (openssl ships with PostgreSQL's packages). */
async function selfSignedCertificate(dir: string): Promise<{ certFile: string; keyFile: string; cert: Buffer }> {
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { certFile, keyFile, cert: await fs.readFile(certFile) };
}

/** GET over HTTPS trusting only `ca`: the certificate must really be the server's. */
function httpsGet(
  url: string,
  ca: Buffer,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca, headers, agent: false }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body, headers: response.headers }));
      })
      .on('error', reject);
  });
}

describe('HTTPS served directly (PARLEY_TLS_CERT / PARLEY_TLS_KEY)', () => {
  let dir: string;
  let parley: TestParley;
  let cert: Buffer;

  parleyTest.beforeAll(async ({ startParley }) => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-tls-'));
    const made = await selfSignedCertificate(dir);
    cert = made.cert;
    parley = await startParley(STORE_KINDS[0]!, { env: { PARLEY_TLS_CERT: made.certFile, PARLEY_TLS_KEY: made.keyFile } });
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('answers over TLS with the configured certificate, keys and all', async () => {
    expect(parley.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect((await httpsGet(`${parley.url}/readyz`, cert)).status).toBe(200);
    const { key } = await parley.newWorkspace();
    const agents = await httpsGet(`${parley.url}/agents`, cert, { authorization: `Bearer ${key}` });
    expect(agents).toMatchObject({ status: 200, body: '[]' });
  });

  it('tells browsers to come back over HTTPS only (HSTS, no preload), on every answer', async () => {
    const { key } = await parley.newWorkspace();
    for (const [path, headers, status] of [
      ['/readyz', {}, 200],
      ['/agents', { authorization: `Bearer ${key}` }, 200],
      ['/agents', {}, 401],
      ['/no-such-route', {}, 404],
    ] as const) {
      const answer = await httpsGet(`${parley.url}${path}`, cert, headers);
      expect(answer.status, path).toBe(status);
      expect(answer.headers['strict-transport-security'], path).toBe('max-age=31536000; includeSubDomains');
    }
  });

  it('does not speak plain HTTP on that port', async () => {
    await expect(fetch(parley.url.replace('https:', 'http:') + '/healthz')).rejects.toThrow();
  });
});

describe.each(STORE_KINDS)('client addresses behind a proxy on %s', (kind) => {
  /** Each Parley logs to its own lines; the IP limit is 2 a minute on public routes. */
  async function start(env: Record<string, string>) {
    const lines: string[] = [];
    const parley = await startTestParley(kind, {
      env: { PARLEY_LOG_LEVEL: 'info', PARLEY_RATE_LIMIT_IP_PER_MINUTE: '2', ...env },
      logStream: { write: (line) => lines.push(line) },
    });
    const ws: Workspace = await parley.newWorkspace();
    const agent = await parley.call<{ id: string }>('POST', '/agents', { key: ws.key, body: { name: 'public', visibility: 'public' } });
    const ask = (forwardedFor: string) =>
      parley.call('POST', `/agents/${agent.body.id}/query`, { key: null, body: { query: 'Hello?' }, headers: { 'x-forwarded-for': forwardedFor } });
    /** The address the request log recorded for a request. */
    const loggedAddress = async (requestId: string) => {
      const line = await until(
        () => lines.find((candidate) => candidate.includes(requestId)),
        (found) => found !== undefined,
      );
      return (JSON.parse(line!) as { req: { remoteAddress: string } }).req.remoteAddress;
    };
    return { parley, ask, loggedAddress };
  }

  it('ignores X-Forwarded-For by default: every caller on the socket shares one address and its limit', async () => {
    const { parley, ask, loggedAddress } = await start({});
    try {
      const first = await ask('203.0.113.7');
      expect(first.status).toBe(200);
      expect(await loggedAddress(first.headers.get('x-request-id')!)).toBe('127.0.0.1');
      expect((await ask('203.0.113.7')).status).toBe(200);
      expect((await ask('198.51.100.9')).status).toBe(429);
    } finally {
      await parley.close();
    }
  });

  it('believes a trusted proxy: the forwarded client is logged and limited on its own', async () => {
    const { parley, ask, loggedAddress } = await start({ PARLEY_TRUST_PROXY: '127.0.0.1' });
    try {
      const first = await ask('203.0.113.7');
      expect(first.status).toBe(200);
      expect(await loggedAddress(first.headers.get('x-request-id')!)).toBe('203.0.113.7');
      expect((await ask('203.0.113.7')).status).toBe(200);
      expect((await ask('203.0.113.7')).status).toBe(429);
      expect((await ask('198.51.100.9')).status).toBe(200);
    } finally {
      await parley.close();
    }
  });

  it('leaves HSTS to the proxy, even when it says the request came over HTTPS', async () => {
    const { parley } = await start({ PARLEY_TRUST_PROXY: '127.0.0.1' });
    try {
      const answer = await parley.call('GET', '/readyz', { headers: { 'x-forwarded-proto': 'https' } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('strict-transport-security')).toBeNull();
    } finally {
      await parley.close();
    }
  });
});
