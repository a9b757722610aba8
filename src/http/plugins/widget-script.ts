import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';

/** Where `npm run build` puts the chat widget: `dist/web/widget.js` of the project (see dashboard.ts). */
export const WIDGET_BUILD_FILE = path.resolve(import.meta.dirname, '../../../dist/web/widget.js');

export interface WidgetScriptOptions {
  /** The built widget; the project's build output when absent. */
  file?: string;
}

/** A URL with `?v=` names one build (the dashboard's snippet adds it), so it never changes meaning. */
const VERSIONED = 'public, max-age=31536000, immutable';
/** The bare URL follows new builds within minutes, revalidated by its ETag. */
const UNVERSIONED = 'public, max-age=300';

const NOT_BUILT = `console.warn("Parley: the chat widget is not built; run npm run build on the server");\n`;

/**
 * `GET /widget.js`: the chat widget, loaded by other sites' pages (its security section in
 * security-headers.ts allows that with a cross-origin resource policy). Read once at start, like the
 * dashboard's files; missing build output answers a 503 script that says so in the console.
 */
export const widgetScriptRoutes: FastifyPluginAsync<WidgetScriptOptions> = async (app, { file = WIDGET_BUILD_FILE }) => {
  const built = fs.existsSync(file) ? fs.readFileSync(file) : null;
  const etag = built === null ? null : `"${createHash('sha256').update(built).digest('base64url').slice(0, 27)}"`;

  app.get('/widget.js', { schema: { hide: true } }, async (request, reply) => {
    reply.type('text/javascript; charset=utf-8');
    if (built === null || etag === null) return reply.code(503).header('cache-control', 'no-store').send(NOT_BUILT);
    const versioned = typeof (request.query as Record<string, unknown>).v === 'string';
    reply.header('cache-control', versioned ? VERSIONED : UNVERSIONED).header('etag', etag);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.send(built);
  });
};
