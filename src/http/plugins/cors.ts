import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PublicAccess } from '../../domain/public-access.js';
import type { PublicRoutes } from './public-routes.js';

/** What a browser page may send and read on a public route. */
const PUBLIC_CORS = {
  allowedHeaders: ['authorization', 'content-type', 'last-event-id'],
  exposedHeaders: ['x-request-id', 'retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'],
  maxAge: 600,
  credentials: false,
};

/**
 * Cross-origin access only where a browser page has business: the public routes, with each method they
 * answer (the widget's lead form is a PUT), for the origins the agent allows (any when it lists none).
 * Key-authenticated routes send no CORS headers at all, even on a public route's path (PATCH /agents/{id}),
 * so no page can call them with a visitor's browser.
 */
export async function registerCors(app: FastifyInstance, publicRoutes: PublicRoutes, access: PublicAccess): Promise<void> {
  await app.register(cors, {
    delegator: async (request: FastifyRequest) => {
      const origin = request.headers.origin;
      const target = publicRoutes.match(request.url);
      if (origin === undefined || target === undefined || !target.methods.includes(methodAsked(request))) return { origin: false };
      const allowed = target.id === undefined || (await access.allowsOrigin(target.resource, target.id, origin));
      return allowed ? { ...PUBLIC_CORS, methods: [...target.methods], origin } : { origin: false };
    },
  });
}

/** The method a request is about: a preflight's is the one it asks for. */
function methodAsked(request: FastifyRequest): string {
  const asked = request.headers['access-control-request-method'];
  return request.method === 'OPTIONS' && typeof asked === 'string' ? asked.toUpperCase() : request.method;
}
