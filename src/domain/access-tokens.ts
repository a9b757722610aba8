import { SignJWT, jwtVerify } from 'jose';
import { unauthorized } from '../errors.js';
import type { InstanceSecretStore, MemberRole } from '../store/store.js';
import { SigningKey } from './signing-key.js';

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
}

export interface IssuedAccessToken {
  accessToken: string;
  expiresAt: string;
}

const ROLES: readonly MemberRole[] = ['owner', 'admin', 'member'];

/**
 * Members' access tokens (the spec's `<ACCESS_TOKEN>`): short-lived JWTs (HS256) for one workspace, signed
 * with a key the store keeps for every process, accepted by the public API wherever an API key is.
 */
export class AccessTokens {
  readonly #key: SigningKey;

  constructor(secrets: InstanceSecretStore) {
    this.#key = new SigningKey(secrets, SECRET_NAME);
  }

  async issue(grant: MemberGrant): Promise<IssuedAccessToken> {
    const expiresAt = Math.floor(Date.now() / 1000) + ACCESS_TOKEN_SECONDS;
    const accessToken = await new SignJWT({ ws: grant.workspaceId, role: grant.role, sid: grant.sessionId })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(grant.userId)
      .setIssuedAt()
      .setExpirationTime(expiresAt)
      .sign(await this.#key.get());
    return { accessToken, expiresAt: new Date(expiresAt * 1000).toISOString() };
  }

  /** The grant of a valid token; `UNAUTHORIZED` when expired, forged, unsigned or of another kind. */
  async verify(token: string): Promise<MemberGrant> {
    try {
      const { payload } = await jwtVerify(token, await this.#key.get(), { algorithms: [ALGORITHM], issuer: ISSUER, audience: AUDIENCE });
      const { sub, ws, role, sid } = payload;
      const known = ROLES.find((candidate) => candidate === role);
      if (typeof sub === 'string' && typeof ws === 'string' && typeof sid === 'string' && known !== undefined) {
        return { userId: sub, workspaceId: ws, role: known, sessionId: sid };
      }
    } catch {
      // Expired, forged or malformed: one answer for all.
    }
    throw unauthorized('The access token is not valid or has expired');
  }
}

/** The audience claim that tells a member's access token from a visitor token. */
export const ACCESS_TOKEN_AUDIENCE = AUDIENCE;
