import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Caller } from '../../domain/callers.js';
import { unauthorized } from '../../errors.js';
import type { KeyService } from '../../domain/keys.js';
import { looksLikeVisitorToken, type VisitorTokens } from '../../domain/visitor-tokens.js';

/**
 * `required` (the default): an API key or 401; `optional`: a public route, open to anonymous callers
 * and visitor tokens too, but a credential that is sent must be valid.
 */
export type AuthMode = 'required' | 'optional';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
  }
  interface FastifyRequest {
    /** The workspace of the bearer key; null for visitors and anonymous callers (public routes only). */
    workspaceId: string | null;
    /** Who is calling, as the credential says. */
    caller: Caller;
  }
}

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;
const ANONYMOUS: Caller = Object.freeze({ kind: 'anonymous' });

/** The caller's workspace on a route that requires a key. */
export function workspaceOf(request: FastifyRequest): string {
  if (request.workspaceId === null) throw unauthorized('This route needs an API key');
  return request.workspaceId;
}

export interface Credentials {
  keys: KeyService;
  visitorTokens: VisitorTokens;
}

/**
 * Resolves `Authorization: Bearer <credential>` to a caller for every route registered in `scope`
 * (encapsulated: health and docs routes outside it stay open). An API key (`pk_live_…`) acts for its
 * workspace; a visitor token only on public routes, within its grant.
 */
export function registerBearerAuth(scope: FastifyInstance, { keys, visitorTokens }: Credentials): void {
  scope.decorateRequest('workspaceId', null);
  // Set by the hook below on every request of the scope before anything reads it.
  scope.decorateRequest<Caller | null>('caller', null);
  scope.addHook('onRequest', async (request) => {
    const open = request.routeOptions.config.auth === 'optional';
    request.caller = ANONYMOUS;
    const header = request.headers.authorization;
    if (header === undefined || header === '') {
      if (open) return;
      throw unauthorized('Missing API key: send the header "Authorization: Bearer <API key>"');
    }
    const match = BEARER.exec(header);
    if (match?.[1] === undefined) throw unauthorized('The Authorization header must read "Bearer <API key>"');
    const credential = match[1];
    if (looksLikeVisitorToken(credential)) {
      const grant = await visitorTokens.verify(credential);
      if (!open) throw unauthorized('This route needs an API key; a visitor token only continues its own conversation');
      request.caller = { kind: 'visitor', grant };
      return;
    }
    const key = await keys.authenticate(credential);
    request.workspaceId = key.workspaceId;
    request.caller = { kind: 'key', workspaceId: key.workspaceId, keyId: key.id };
  });
}

/** A visitor token sent in the body, for clients that cannot set headers; the header's credential wins. */
export async function withBodyToken(request: FastifyRequest, token: string, visitorTokens: VisitorTokens): Promise<void> {
  if (request.caller.kind === 'anonymous') request.caller = { kind: 'visitor', grant: await visitorTokens.verify(token) };
}
