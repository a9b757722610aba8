import { SignJWT, jwtVerify } from 'jose';
import { unauthorized } from '../errors.js';
import type { InstanceSecretStore, MemberRole } from '../store/store.js';
import { SigningKey } from './signing-key.js';
import type { TokenGenerations } from './token-generations.js';

const ISSUER = 'parley';
const AUDIENCE = 'parley:member';
const ALGORITHM = 'HS256';
const SECRET_NAME = 'access-token-key';

/** An access token is good for this long; the dashboard mints a new one from its session before then. */
export const ACCESS_TOKEN_SECONDS = 15 * 60;

/** What a member's access token says: who, in which workspace, with which role, from which session. */
export interface MemberGrant {
  userId: string;
  workspaceId: string;
  role: MemberRole;
  sessionId: string;
  /** The person's token generation when it was issued: a later revocation raises theirs past it. */
  generation: number;
}

export interface IssuedAccessToken {
  accessToken: string;
  expiresAt: string;
}

const ROLES: readonly MemberRole[] = ['owner', 'admin', 'member'];

/**
 * Members' access tokens (the spec's `<ACCESS_TOKEN>`): short-lived JWTs (HS256) for one workspace, signed
 * with a key the store keeps for every process, accepted by the public API wherever an API key is. A token
 * whose generation is below its person's current one was revoked (sign-out, a new password, a new role, a
 * removal) and is refused at once, by every process.
 */
export class AccessTokens {
  readonly #key: SigningKey;

  constructor(
    secrets: InstanceSecretStore,
    private readonly generations: TokenGenerations,
  ) {
    this.#key = new SigningKey(secrets, SECRET_NAME);
  }

  async issue(grant: MemberGrant): Promise<IssuedAccessToken> {
    const expiresAt = Math.floor(Date.now() / 1000) + ACCESS_TOKEN_SECONDS;
    const accessToken = await new SignJWT({ ws: grant.workspaceId, role: grant.role, sid: grant.sessionId, gen: grant.generation })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(grant.userId)
      .setIssuedAt()
      .setExpirationTime(expiresAt)
      .sign(await this.#key.get());
    return { accessToken, expiresAt: new Date(expiresAt * 1000).toISOString() };
  }

  /** The grant of a valid token; `UNAUTHORIZED` when expired, revoked, forged, unsigned or of another kind. */
  async verify(token: string): Promise<MemberGrant> {
    const grant = await this.#signedGrant(token);
    if (grant === undefined || grant.generation < (await this.generations.current(grant.userId))) {
      throw unauthorized('The access token is not valid or has expired');
    }
    return grant;
  }

  async #signedGrant(token: string): Promise<MemberGrant | undefined> {
    // Read outside the try: a store that cannot be reached is a 503, not a token refused.
    const key = await this.#key.get();
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: [ALGORITHM], issuer: ISSUER, audience: AUDIENCE });
      const { sub, ws, role, sid, gen } = payload;
      const known = ROLES.find((candidate) => candidate === role);
      if (typeof sub === 'string' && typeof ws === 'string' && typeof sid === 'string' && known !== undefined) {
        // Tokens from before revocation existed carry no generation: the first one.
        return { userId: sub, workspaceId: ws, role: known, sessionId: sid, generation: typeof gen === 'number' ? gen : 0 };
      }
    } catch {
      // Expired, forged or malformed: one answer for all.
    }
    return undefined;
  }
}

/** The audience claim that tells a member's access token from a visitor token. */
export const ACCESS_TOKEN_AUDIENCE = AUDIENCE;
