import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardRoutes } from '../../src/http/plugins/dashboard.js';
import { registerSecurityHeaders } from '../../src/http/plugins/security-headers.js';

async function serverWith(root: string): Promise<FastifyInstance> {
  const app = Fastify();
  await registerSecurityHeaders(app, { https: false });
  await app.register(dashboardRoutes, { root });
  await app.ready();
  return app;
}

describe('the dashboard plugin', () => {
  let dir: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-dashboard-'));
    await fs.mkdir(path.join(dir, 'assets'));
    await fs.writeFile(path.join(dir, 'index.html'), '<!doctype html><title>Parley</title><div id="root"></div>');
    await fs.writeFile(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
    await fs.writeFile(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    app = await serverWith(dir);
  });

  afterAll(async () => {
    await app.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('answers /favicon.ico with the dashboard’s icon', async () => {
    const response = await app.inject({ url: '/favicon.ico' });
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe('/dashboard/favicon.svg');
    const icon = await app.inject({ url: '/dashboard/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
  });

  it('leads / and /dashboard to /dashboard/', async () => {
    for (const url of ['/', '/dashboard']) {
      const response = await app.inject({ url });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe('/dashboard/');
    }
  });

  it('answers index.html for the app’s own paths, not cached, under a strict CSP', async () => {
    for (const url of ['/dashboard/', '/dashboard/agents', '/dashboard/datastores/ds_1?tab=search&q=x', '/dashboard/settings/keys']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('<div id="root">');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-security-policy']).toBe(
        "default-src 'self';script-src 'self';style-src 'self';img-src 'self' data:;connect-src 'self';frame-ancestors 'none';base-uri 'none';form-action 'self'",
      );
    }
  });

  it('serves hashed assets for a year, and a missing one as 404 rather than HTML', async () => {
    const asset = await app.inject({ url: '/dashboard/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toContain('javascript');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await app.inject({ url: '/dashboard/assets/index-old999.js' });
    expect(missing.statusCode).toBe(404);
  });

  it('does not leave its folder', async () => {
    const response = await app.inject({ url: '/dashboard/..%2f..%2fpackage.json' });
    expect(response.body).not.toContain('"dependencies"');
  });

  it('answers a readable 503 page when the dashboard was never built', async () => {
    const bare = await serverWith(path.join(dir, 'not-built'));
    try {
      const response = await bare.inject({ url: '/dashboard/agents' });
      expect(response.statusCode).toBe(503);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('npm run build');
      expect((await bare.inject({ url: '/' })).headers.location).toBe('/dashboard/');
    } finally {
      await bare.close();
    }
  });
});
