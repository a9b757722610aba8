import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unauthorized } from '../../domain/errors.js';
import type { KeyService } from '../../domain/keys.js';

/** `required` (the default): a valid key or 401; `optional`: a key if given, and then it must be valid. */
export type AuthMode = 'required' | 'optional';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
  }
  interface FastifyRequest {
    /** The workspace of the bearer key; null only on routes whose auth is optional. */
    workspaceId: string | null;
  }
}

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

/** The caller's workspace on a route that requires a key. */
export function workspaceOf(request: FastifyRequest): string {
  if (request.workspaceId === null) throw unauthorized('This route needs an API key');
  return request.workspaceId;
}

/**
 * Resolves `Authorization: Bearer <key>` to a workspace for every route registered in `scope`
 * (encapsulated: health and docs routes outside it stay open).
 */
export function registerBearerAuth(scope: FastifyInstance, keys: KeyService): void {
  scope.decorateRequest('workspaceId', null);
  scope.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (header === undefined || header === '') {
      if (request.routeOptions.config.auth === 'optional') return;
      throw unauthorized('Missing API key: send the header "Authorization: Bearer <API key>"');
    }
    const match = BEARER.exec(header);
    if (match?.[1] === undefined) throw unauthorized('The Authorization header must read "Bearer <API key>"');
    const key = await keys.authenticate(match[1]);
    request.workspaceId = key.workspaceId;
  });
}
