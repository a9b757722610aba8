import type { FastifyInstance, FastifyRequest } from 'fastify';
import { decodeJwt } from 'jose';
import { ACCESS_TOKEN_AUDIENCE, type AccessTokens } from '../../domain/access-tokens.js';
import { isWorkspaceCaller, mayAdminister, type Caller, type WorkspaceCaller } from '../../domain/callers.js';
import { notPermitted, unauthorized } from '../../errors.js';
import type { KeyService } from '../../domain/keys.js';
import { looksLikeToken, type VisitorTokens } from '../../domain/visitor-tokens.js';

/**
 * `required` (the default): an API key or 401; `optional`: a public route, open to anonymous callers
 * and visitor tokens too, but a credential that is sent must be valid.
 */
export type AuthMode = 'required' | 'optional';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
    /** Only owners and admins (and keys they made) may call it: members, webhooks, workspace settings. */
    adminOnly?: boolean;
  }
  interface FastifyRequest {
    /** The workspace of the key or member token; null for visitors and anonymous callers (public routes only). */
    workspaceId: string | null;
    /** Who is calling, as the credential says. */
    caller: Caller;
  }
}

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

/** The credential of an `Authorization: Bearer …` header (the scheme word in any case); undefined otherwise. */
export const bearerCredential = (header: string | undefined): string | undefined => (header === undefined ? undefined : BEARER.exec(header)?.[1]);
const ANONYMOUS: Caller = Object.freeze({ kind: 'anonymous' });

/** The caller's workspace on a route that requires a key. */
export function workspaceOf(request: FastifyRequest): string {
  if (request.workspaceId === null) throw unauthorized('This route needs an API key');
  return request.workspaceId;
}

/** The key or member calling a route that requires one (a visitor reaching a key route is refused earlier). */
export function workspaceCallerOf(request: FastifyRequest): WorkspaceCaller {
  if (!isWorkspaceCaller(request.caller)) throw unauthorized('This route needs an API key');
  return request.caller;
}

export interface Credentials {
  keys: KeyService;
  visitorTokens: VisitorTokens;
  accessTokens: AccessTokens;
}

/** A member's access token or a visitor token (both JWTs), told apart by their audience. */
async function tokenCaller(token: string, { visitorTokens, accessTokens }: Credentials): Promise<Caller> {
  let audience: unknown;
  try {
    audience = decodeJwt(token).aud;
  } catch {
    throw unauthorized('The bearer credential is not valid');
  }
  if (audience === ACCESS_TOKEN_AUDIENCE) {
    const grant = await accessTokens.verify(token);
    return { kind: 'member', workspaceId: grant.workspaceId, userId: grant.userId, role: grant.role };
  }
  return { kind: 'visitor', grant: await visitorTokens.verify(token) };
}

/**
 * Resolves `Authorization: Bearer <credential>` to a caller for every route registered in `scope`
 * (encapsulated: health and docs routes outside it stay open). An API key (`pk_live_…`) acts for its
 * workspace, a member's access token for its workspace by role; a visitor token only on public routes,
 * within its grant.
 */
export function registerBearerAuth(scope: FastifyInstance, credentials: Credentials): void {
  scope.decorateRequest('workspaceId', null);
  scope.decorateRequest<Caller | null>('caller', null);
  scope.addHook('onRequest', async (request) => {
    const { auth, adminOnly } = request.routeOptions.config;
    const open = auth === 'optional';
    request.caller = ANONYMOUS;
    const header = request.headers.authorization;
    if (header === undefined || header === '') {
      if (open) return;
      throw unauthorized('Missing API key: send the header "Authorization: Bearer <API key>"');
    }
    const credential = bearerCredential(header);
    if (credential === undefined) throw unauthorized('The Authorization header must read "Bearer <API key>"');
    const caller = looksLikeToken(credential) ? await tokenCaller(credential, credentials) : await keyCaller(credential, credentials.keys);
    if (caller.kind === 'visitor' && !open) {
      throw unauthorized('This route needs an API key; a visitor token only continues its own conversation');
    }
    if (isWorkspaceCaller(caller)) {
      if (adminOnly && !mayAdminister(caller)) {
        throw notPermitted('Only owners and admins of the workspace may do this, or a key one of them made');
      }
      request.workspaceId = caller.workspaceId;
    }
    request.caller = caller;
  });
}

async function keyCaller(secret: string, keys: KeyService): Promise<Caller> {
  const { key, role } = await keys.authenticate(secret);
  return { kind: 'key', workspaceId: key.workspaceId, keyId: key.id, userId: key.createdBy, role };
}

/** A visitor token sent in the body, for clients that cannot set headers; the header's credential wins. */
export async function withBodyToken(request: FastifyRequest, token: string, visitorTokens: VisitorTokens): Promise<void> {
  if (request.caller.kind === 'anonymous') request.caller = { kind: 'visitor', grant: await visitorTokens.verify(token) };
}
