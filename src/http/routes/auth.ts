import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccessTokens } from '../../domain/access-tokens.js';
import type { AccountService, Me, SignedIn } from '../../domain/accounts.js';
import type { KeyService } from '../../domain/keys.js';
import { looksLikeToken } from '../../domain/visitor-tokens.js';
import type { WorkspaceService } from '../../domain/workspaces.js';
import { ParleyError, unauthorized } from '../../errors.js';
import type { SessionRecord, UserRecord } from '../../store/store.js';
import { bearerCredential } from '../plugins/auth.js';
import { refuseWhenExceeded } from '../plugins/rate-limits.js';
import { IdParams, errorResponses } from '../schemas.js';
import {
  AccessToken,
  AccountChanges,
  Invitation,
  InvitationAcceptance,
  KeyWorkspace,
  MeAnswer,
  NewPassword,
  ResetRequest,
  ResetRequested,
  Session,
  Setup,
  SetupStatus,
  SignIn,
  SignUp,
  Token,
  TokenRequest,
  UserAnswer,
} from '../../contract/auth.js';

/** The dashboard's session cookie: a random secret whose hash names the server-side session. */
export const SESSION_COOKIE = 'parley_session';
/** The cookie outlives no session: sessions end after 30 days idle on the server side anyway. */
const COOKIE_MAX_AGE_SECONDS = 30 * 24 * 3600;

/**
 * Credential checks (sign-in, setup, sign-up, invitations, resets) per client address a minute, and wrong
 * passwords per account in 15 minutes: one address cannot try many accounts, nor many addresses one.
 */
const ATTEMPTS_PER_ADDRESS = 60;
const FAILURES_PER_ACCOUNT = 5;
/** Reset e-mails asked for one address in 15 minutes: nobody's mailbox is flooded with them. */
const RESETS_PER_ACCOUNT = 3;

const userView = ({ id, email, name }: UserRecord) => ({ id, email, name });

const meView = ({ user, memberships }: Me) => ({
  user: userView(user),
  memberships: memberships.map(({ member, workspaceName }) => ({
    workspaceId: member.workspaceId,
    workspaceName,
    role: member.role,
    memberId: member.id,
  })),
});

const sessionView = (session: SessionRecord, currentId: string | undefined) => ({
  id: session.id,
  createdAt: session.createdAt,
  lastSeenAt: session.lastSeenAt,
  userAgent: session.userAgent,
  current: session.id === currentId,
});

export interface AuthRoutesOptions {
  accounts: AccountService;
  accessTokens: AccessTokens;
  /** For `GET /me` with an API key, as integrations test a key (Zapier). */
  keys: KeyService;
  workspaces: WorkspaceService;
  /** The origin people reach Parley at (PARLEY_PUBLIC_URL), besides the request's own. */
  publicOrigin: () => string;
}

/**
 * The dashboard's own endpoints (docs/dashboard-api.md: `/auth/*` and `/me`, nothing else): setup, sign-in, sessions
 * in an HttpOnly SameSite=Strict cookie, access tokens for the public API, invitations, password resets
 * and the person's account. State-changing calls refuse another site's `Origin` (CSRF).
 */
export const authRoutes: FastifyPluginAsyncTypebox<AuthRoutesOptions> = async (app, { accounts, accessTokens, keys, workspaces, publicOrigin }) => {
  const tags = ['auth'];
  const perAddress = app.createRateLimit({ keyGenerator: (request) => `auth-address:${request.ip}`, max: ATTEMPTS_PER_ADDRESS, timeWindow: 60_000 });
  const accountOf = (request: FastifyRequest) => {
    const email = (request.body as { email?: unknown } | undefined)?.email;
    return `auth-account:${typeof email === 'string' ? email.trim().toLowerCase() : '-'}`;
  };
  const failuresPerAccount = app.createRateLimit({ keyGenerator: accountOf, max: FAILURES_PER_ACCOUNT, timeWindow: 15 * 60_000 });
  // Keyed on the address asked for, known or not: a refusal tells nothing about an account.
  const resetsPerAccount = app.createRateLimit({
    keyGenerator: (request) => `reset-${accountOf(request)}`,
    max: RESETS_PER_ACCOUNT,
    timeWindow: 15 * 60_000,
  });

  const sameOrigin = (request: FastifyRequest) => {
    const origin = request.headers.origin;
    return origin === `${request.protocol}://${request.host}` || origin === publicOrigin();
  };
  // Cookies go with every request to this site; only its own pages may change anything with them.
  app.addHook('preHandler', async (request) => {
    if (request.method === 'GET' || request.method === 'HEAD') return;
    if (request.routeOptions.config.checksCredentials) {
      const attempt = await perAddress(request);
      if (!attempt.isAllowed) refuseWhenExceeded('your address', attempt);
    }
    const origin = request.headers.origin;
    if ((origin !== undefined || request.routeOptions.config.requireOrigin) && !sameOrigin(request)) {
      throw new ParleyError('FORBIDDEN', 'This request must come from a Parley page (Origin)');
    }
  });

  const setSession = (request: FastifyRequest, reply: FastifyReply, signedIn: SignedIn) => {
    reply.setCookie(SESSION_COOKIE, signedIn.sessionSecret, {
      httpOnly: true,
      sameSite: 'strict',
      secure: request.protocol === 'https',
      path: '/',
      maxAge: COOKIE_MAX_AGE_SECONDS,
    });
    return { user: userView(signedIn.user) };
  };
  const userAgent = (request: FastifyRequest) => request.headers['user-agent'] ?? 'unknown';
  const secretOf = (request: FastifyRequest) => request.cookies[SESSION_COOKIE];
  const signedIn = async (request: FastifyRequest) => {
    const secret = secretOf(request);
    const found = secret === undefined ? undefined : await accounts.session(secret);
    if (found === undefined) throw unauthorized('Sign in first');
    return found;
  };
  /** `/me` answers the session's person, or the person an access token names (with the session it came from). */
  const personOf = async (request: FastifyRequest): Promise<{ userId: string; sessionId: string }> => {
    const bearer = bearerCredential(request.headers.authorization);
    if (bearer !== undefined) return accessTokens.verify(bearer);
    const { user, session } = await signedIn(request);
    return { userId: user.id, sessionId: session.id };
  };

  app.get(
    '/auth/setup-status',
    {
      schema: {
        tags,
        security: [],
        summary: 'Whether the instance still needs its first owner, and whether anyone may sign up',
        response: { 200: SetupStatus, ...errorResponses() },
      },
    },
    async () => accounts.setupStatus(),
  );

  app.post(
    '/auth/setup',
    {
      config: { checksCredentials: true },
      schema: {
        tags,
        security: [],
        summary: 'Create the first owner with the one-time setup link printed at the first start',
        body: Setup,
        response: { 200: UserAnswer, ...errorResponses(429) },
      },
    },
    async (request, reply) => setSession(request, reply, await accounts.setup(request.body, userAgent(request))),
  );

  app.post(
    '/auth/sign-up',
    {
      config: { checksCredentials: true },
      schema: {
        tags,
        security: [],
        summary: 'Create an account and a workspace of one’s own (only with PARLEY_SIGNUP=open)',
        body: SignUp,
        response: { 200: UserAnswer, ...errorResponses(409, 429) },
      },
    },
    async (request, reply) => setSession(request, reply, await accounts.signUp(request.body, userAgent(request))),
  );

  app.post(
    '/auth/sign-in',
    {
      config: { checksCredentials: true },
      schema: {
        tags,
        security: [],
        summary: 'Sign in with e-mail and password; sets the session cookie',
        body: SignIn,
        response: { 200: UserAnswer, ...errorResponses(429) },
      },
    },
    async (request, reply) => {
      const before = await failuresPerAccount(request, { increment: false });
      if (!before.isAllowed && before.remaining <= 0) refuseWhenExceeded('this account', { ...before, isExceeded: true });
      try {
        return setSession(request, reply, await accounts.signIn(request.body, userAgent(request)));
      } catch (error) {
        if (ParleyError.isInstance(error) && error.code === 'UNAUTHORIZED') await failuresPerAccount(request);
        throw error;
      }
    },
  );

  app.post(
    '/auth/sign-out',
    { schema: { tags, security: [], summary: 'End this session and clear its cookie', response: { 204: Type.Null(), ...errorResponses(429) } } },
    async (request, reply) => {
      const secret = secretOf(request);
      if (secret !== undefined) await accounts.signOut(secret);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/auth/token',
    {
      config: { requireOrigin: true },
      schema: {
        tags,
        security: [],
        summary: 'An access token (15 minutes) for one of the person’s workspaces, to call the public API with',
        body: TokenRequest,
        response: { 200: AccessToken, ...errorResponses(429) },
      },
    },
    async (request) => {
      const secret = secretOf(request);
      if (secret === undefined) throw unauthorized('Sign in first');
      return accounts.mintAccessToken(secret, request.body.workspaceId);
    },
  );

  app.get(
    '/me',
    {
      schema: {
        tags,
        summary: 'The signed-in person and their workspaces (session cookie or access token), or an API key’s workspace',
        response: { 200: Type.Union([MeAnswer, KeyWorkspace]), ...errorResponses() },
      },
    },
    async (request) => {
      const bearer = bearerCredential(request.headers.authorization);
      if (bearer !== undefined && !looksLikeToken(bearer)) {
        const { key, role } = await keys.authenticate(bearer);
        const { id, name, createdAt } = await workspaces.get(key.workspaceId);
        return { id, name, createdAt, role };
      }
      return meView(await accounts.me((await personOf(request)).userId));
    },
  );

  app.patch(
    '/me',
    {
      schema: {
        tags,
        summary: 'Change one’s name or password (a new password needs the current one)',
        body: AccountChanges,
        response: { 200: UserAnswer, ...errorResponses(413, 415, 429) },
      },
    },
    async (request) => {
      const { userId, sessionId } = await personOf(request);
      return { user: userView(await accounts.updateMe(userId, request.body, sessionId)) };
    },
  );

  app.get(
    '/auth/sessions',
    {
      schema: {
        tags,
        security: [],
        summary: 'The person’s signed-in sessions, most recently used first',
        response: { 200: Type.Array(Session), ...errorResponses() },
      },
    },
    async (request) => {
      const { user, session } = await signedIn(request);
      return (await accounts.listSessions(user.id)).map((each) => sessionView(each, session.id));
    },
  );

  app.delete(
    '/auth/sessions/:id',
    {
      schema: {
        tags,
        security: [],
        summary: 'Sign out one session (another device)',
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses() },
      },
    },
    async (request, reply) => {
      const { user } = await signedIn(request);
      await accounts.revokeSession(user.id, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/auth/invitations/:token',
    {
      schema: {
        tags,
        security: [],
        summary: 'What an invitation link offers',
        params: Type.Object({ token: Token }),
        response: { 200: Invitation, ...errorResponses() },
      },
    },
    async (request) => accounts.invitation(request.params.token, secretOf(request)),
  );

  app.post(
    '/auth/invitations/accept',
    {
      config: { checksCredentials: true },
      schema: {
        tags,
        security: [],
        summary:
          'Accept an invitation: from the invited person’s own session, or with their account’s password, or (an address without an account yet) choosing one; signs in',
        body: InvitationAcceptance,
        response: { 200: UserAnswer, ...errorResponses(429) },
      },
    },
    async (request, reply) => {
      const accepted = await accounts.acceptInvitation(request.body, userAgent(request), secretOf(request));
      return 'sessionSecret' in accepted ? setSession(request, reply, accepted) : { user: userView(accepted.user) };
    },
  );

  app.post(
    '/auth/password-reset/request',
    {
      config: { checksCredentials: true, requireOrigin: true },
      schema: {
        tags,
        security: [],
        summary:
          '“Forgot password?”: e-mails a one-time reset link when the address has an account and SMTP is set; the answer is the same for every address',
        body: ResetRequest,
        response: { 202: ResetRequested, ...errorResponses(429) },
      },
    },
    async (request, reply) => {
      const counted = await resetsPerAccount(request);
      if (!counted.isAllowed) refuseWhenExceeded('this e-mail address', counted);
      return reply.status(202).send({ delivery: accounts.requestPasswordReset(request.body.email) });
    },
  );

  app.post(
    '/auth/password-reset',
    {
      config: { checksCredentials: true },
      schema: {
        tags,
        security: [],
        summary: 'Set a new password with a one-time reset link',
        body: NewPassword,
        response: { 200: UserAnswer, ...errorResponses(429) },
      },
    },
    async (request, reply) => setSession(request, reply, await accounts.resetPassword(request.body, userAgent(request))),
  );
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The request must carry this site's `Origin` (not just: may not carry another's). */
    requireOrigin?: boolean;
    /** Checks a password or a one-time link: counted against the client address's allowance. */
    checksCredentials?: boolean;
  }
}
