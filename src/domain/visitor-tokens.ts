import { SignJWT, jwtVerify } from 'jose';
import type { InstanceSecretStore } from '../store/store.js';
import type { VisitorGrant } from './callers.js';
import { unauthorized } from '../errors.js';
import { SigningKey } from './signing-key.js';

const ISSUER = 'parley';
const AUDIENCE = 'parley:visitor';
const ALGORITHM = 'HS256';
const SECRET_NAME = 'visitor-token-key';

/** Tells a token (a visitor's or a member's) from an API key at a glance: a JWT starts with its base64url header `{"`. */
export const looksLikeToken = (token: string): boolean => token.startsWith('eyJ') && token.split('.').length === 3;

/**
 * Visitor tokens: JWTs (HS256) signed with a key every process on the store shares, made on first use.
 * Claims: `sub` the visitor, `ws` the workspace, `agt` the agent, `cnv` the conversation. They do not
 * expire: a visitor coming back weeks later still continues their conversation, and the grant is one
 * conversation only.
 */
export class VisitorTokens {
  readonly #key: SigningKey;

  constructor(secrets: InstanceSecretStore) {
    this.#key = new SigningKey(secrets, SECRET_NAME);
  }

  async issue(grant: VisitorGrant): Promise<string> {
    return new SignJWT({ ws: grant.workspaceId, agt: grant.agentId, cnv: grant.conversationId })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(grant.visitorId)
      .setIssuedAt()
      .sign(await this.#key.get());
  }

  /** The grant a token carries; `UNAUTHORIZED` when it is forged, altered, of another kind or malformed. */
  async verify(token: string): Promise<VisitorGrant> {
    try {
      const { payload } = await jwtVerify(token, await this.#key.get(), {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience: AUDIENCE,
      });
      const { sub, ws, agt, cnv } = payload;
      if (typeof sub === 'string' && typeof ws === 'string' && typeof agt === 'string' && typeof cnv === 'string') {
        return { workspaceId: ws, agentId: agt, visitorId: sub, conversationId: cnv };
      }
    } catch {
      // Any verification failure is the same answer: the token is not one of ours.
    }
    throw unauthorized('The visitor token is not valid');
  }
}
