import { describe, expect, it } from 'vitest';
import type { ApiResponse, TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';

/** A Content-Security-Policy header as directive → sources. */
function directives(header: string | null): Record<string, string[]> {
  expect(header).not.toBeNull();
  return Object.fromEntries(
    header!
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name !== '')
      .map(([name, ...sources]) => [name, sources]),
  );
}

/** The headers every answer carries, JSON or page, success or error. */
function expectSecurityHeaders(response: ApiResponse) {
  const { headers } = response;
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('x-frame-options')).toBe('DENY');
  expect(headers.get('referrer-policy')).toBe('no-referrer');
  expect(headers.get('x-powered-by')).toBeNull();
  expect(headers.get('strict-transport-security')).toBeNull();
  expect(directives(headers.get('content-security-policy'))['frame-ancestors']).toEqual(["'none'"]);
}

describe.each(STORE_KINDS)('security headers on %s', (kind) => {
  let parley: TestParley;
  let ws: Workspace;

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind);
    ws = await parley.newWorkspace();
  });

  it('sends them on an API answer, with a CSP that lets JSON load nothing', async () => {
    const response = await parley.call('GET', '/agents', { key: ws.key });
    expect(response.status).toBe(200);
    expectSecurityHeaders(response);
    expect(directives(response.headers.get('content-security-policy'))).toEqual({
      'default-src': ["'none'"],
      'base-uri': ["'none'"],
      'form-action': ["'none'"],
      'frame-ancestors': ["'none'"],
    });
  });

  it.each([
    ['401', 'GET', '/agents', {}],
    ['404', 'GET', '/no/such/route', {}],
    ['400', 'POST', '/agents', { raw: '{"name": ', headers: { 'content-type': 'application/json' } }],
  ] as const)('sends them on a %s error', async (status, method, path, options) => {
    const response = await parley.call(method, path, { key: path === '/agents' && method === 'GET' ? null : ws.key, ...options });
    expect(String(response.status)).toBe(status);
    expect(response.body).toMatchObject({ error: expect.any(String) });
    expectSecurityHeaders(response);
  });

  it('sends them on the probes', async () => {
    expectSecurityHeaders(await parley.call('GET', '/healthz'));
  });

  it.each(['/docs', '/docs/'])('still renders %s, under a CSP that allows its own scripts and styles only', async (path) => {
    const page = await parley.call<string>('GET', path);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.body).toContain('<div id="swagger-ui">');
    expectSecurityHeaders(page);
    const csp = directives(page.headers.get('content-security-policy'));
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp['connect-src']).toEqual(["'self'"]);
    expect(csp['object-src']).toEqual(["'none'"]);

    // 'self' scripts only: the page has no inline script, and every script and stylesheet it names is ours.
    expect(page.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, url]) => new URL(url!, `${parley.url}${path}`));
    expect(assets.length).toBeGreaterThanOrEqual(5);
    for (const asset of assets) {
      expect(asset.origin).toBe(parley.url);
      const response = await fetch(asset);
      await response.arrayBuffer();
      expect(response.status, asset.pathname).toBe(200);
      expect(directives(response.headers.get('content-security-policy'))['script-src']).toEqual(["'self'"]);
    }
    const spec = await parley.call('GET', '/docs/json');
    expect(spec.status).toBe(200);
    expect(spec.body).toMatchObject({ openapi: '3.1.0' });
  });

  it('keeps the spec on this server: no validator badge from swagger.io', async () => {
    const initializer = await parley.call<string>('GET', '/docs/static/swagger-initializer.js');
    expect(initializer.body).toMatch(/"validatorUrl":\s*null/);
  });
});
