import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';

/**
 * Where `npm run build` puts the dashboard: `dist/web/dashboard` of the project. This file runs as
 * `src/http/plugins/` (tests) or `dist/http/plugins/` (built), both three levels below the project.
 */
export const DASHBOARD_BUILD_DIR = path.resolve(import.meta.dirname, '../../../dist/web/dashboard');

export interface DashboardOptions {
  /** The built dashboard; the project's build output when absent. */
  root?: string;
}

/** Vite names every file under assets/ after its content, so a URL there never changes meaning. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dashboard not built</title></head>
<body><h1>The dashboard is not built</h1>
<p>Run <code>npm run build</code> (or <code>npm start</code>, which builds first), then reload this page. The API works without it.</p>
</body></html>
`;

const hidden = { schema: { hide: true } };

/**
 * The dashboard (a single-page app) under /dashboard/: its files as built, index.html for every other
 * path below it (the app routes in the browser), and `/` leading there. Missing build output answers
 * a 503 page instead of failing the start, so the API runs in tests that never built the web app.
 */
export const dashboardRoutes: FastifyPluginAsync<DashboardOptions> = async (app, { root = DASHBOARD_BUILD_DIR }) => {
  const toDashboard = (_request: unknown, reply: FastifyReply) => reply.redirect('/dashboard/');
  app.get('/', hidden, toDashboard);
  app.get('/dashboard', hidden, toDashboard);

  if (!fs.existsSync(path.join(root, 'index.html'))) {
    app.get('/dashboard/*', hidden, async (_request, reply) =>
      reply.code(503).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(NOT_BUILT_PAGE),
    );
    return;
  }

  // Browsers ask for /favicon.ico on pages that name no icon (the API docs, a JSON answer opened in a tab).
  app.get('/favicon.ico', hidden, (_request, reply) => reply.redirect('/dashboard/favicon.svg', 301));

  await app.register(fastifyStatic, {
    root,
    prefix: '/dashboard/',
    // One route per built file, read at start; everything else below /dashboard/ is the app's own URL.
    wildcard: false,
    cacheControl: false,
    setHeaders: (reply, file) => {
      const inAssets = path.relative(root, file).split(path.sep)[0] === 'assets';
      reply.header('cache-control', inAssets ? IMMUTABLE : 'no-cache');
    },
  });

  app.get('/dashboard/*', hidden, async (request, reply) => {
    // A hashed file that is not there (an older build's) must not be answered with HTML.
    if (request.url.startsWith('/dashboard/assets/')) return reply.callNotFound();
    return reply.sendFile('index.html');
  });
};
