import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PublicAccess } from '../../domain/public-access.js';
import type { PublicRoutes } from './public-routes.js';

/** What a browser page may send and read on a public route. */
const PUBLIC_CORS = {
  methods: ['GET', 'POST'],
  allowedHeaders: ['authorization', 'content-type', 'last-event-id'],
  exposedHeaders: ['x-request-id', 'retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'],
  maxAge: 600,
  credentials: false,
};

/**
 * Cross-origin access only where a browser page has business: the public routes, for the origins the
 * agent allows (any when it lists none). Key-authenticated routes send no CORS headers at all, so no
 * page can read them with a visitor's browser.
 */
export async function registerCors(app: FastifyInstance, publicRoutes: PublicRoutes, access: PublicAccess): Promise<void> {
  await app.register(cors, {
    delegator: async (request: FastifyRequest) => {
      const origin = request.headers.origin;
      const target = publicRoutes.match(request.url);
      if (origin === undefined || target === undefined) return { origin: false };
      const allowed = target.id === undefined || (await access.allowsOrigin(target.resource, target.id, origin));
      return allowed ? { ...PUBLIC_CORS, origin } : { origin: false };
    },
  });
}
