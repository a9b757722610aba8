import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PublicAccess } from '../../domain/public-access.js';
import type { PublicRoutes, PublicTarget } from './public-routes.js';

/** What a browser page may read of a public route's answer (credentials are never asked for). */
const ANSWER_HEADERS = Object.freeze({
  'access-control-expose-headers': 'x-request-id, retry-after, ratelimit-limit, ratelimit-remaining, ratelimit-reset',
});
/** What a page may send to a public route, and how long its browser may remember the preflight's answer. */
const PREFLIGHT_HEADERS = Object.freeze({
  'access-control-allow-headers': 'authorization, content-type, last-event-id',
  'access-control-max-age': '600',
});

/**
 * Cross-origin access only where a browser page has business: the public routes, with each method they
 * answer (the widget's lead form is a PUT), for the origins the agent allows (any when it lists none).
 * Key-authenticated routes send no CORS headers at all, even on a public route's path (PATCH /agents/{id}),
 * so no page can call them with a visitor's browser. Every header value is fixed once here; a request
 * without `Origin` (servers, scripts, most of the API's traffic) costs one header look-up.
 */
export function registerCors(app: FastifyInstance, publicRoutes: PublicRoutes, access: PublicAccess): void {
  // A callback hook: no promise per request for the many without `Origin`.
  app.addHook('onRequest', (request, reply, done) => {
    const origin = request.headers.origin;
    if (origin === undefined) {
      // A public route's answer depends on the page's origin: a cache must not hand it to another page.
      if (request.routeOptions.config.publicResource !== undefined) reply.header('vary', 'Origin');
      return done();
    }
    reply.header('vary', 'Origin');
    const target = publicRoutes.match(request.url);
    if (target === undefined) return done();
    allows(target, methodAsked(request), origin, access).then((allowed) => {
      if (!allowed) return done();
      reply.header('access-control-allow-origin', origin);
      reply.headers(ANSWER_HEADERS);
      // Answered here, before authentication: a browser sends no credential with a preflight.
      if (isPreflight(request)) return void answerPreflight(reply, target);
      done();
    }, done);
  });
  // A preflight reaches no route of its own: an allowed one was answered above; the others are not found.
  app.options('*', { schema: { hide: true } }, (_request, reply) => reply.callNotFound());
}

async function allows(target: PublicTarget, method: string, origin: string, access: PublicAccess): Promise<boolean> {
  if (!target.methods.includes(method)) return false;
  return target.id === undefined || access.allowsOrigin(target.resource, target.id, origin);
}

const isPreflight = (request: FastifyRequest): boolean =>
  request.method === 'OPTIONS' && typeof request.headers['access-control-request-method'] === 'string';

/** The method a request is about: a preflight's is the one it asks for. */
function methodAsked(request: FastifyRequest): string {
  const asked = request.headers['access-control-request-method'];
  return request.method === 'OPTIONS' && typeof asked === 'string' ? asked.toUpperCase() : request.method;
}

/** 204 with an empty body (Safari waits for a body without `Content-Length: 0`). */
function answerPreflight(reply: FastifyReply, target: PublicTarget): FastifyReply {
  return reply
    .code(204)
    .headers(PREFLIGHT_HEADERS)
    .header('access-control-allow-methods', target.methods.join(', '))
    .header('content-length', '0')
    .send();
}
