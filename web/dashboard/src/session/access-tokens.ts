import type { AccessTokenBody } from '../../../../src/contract/auth';
import { api, ApiError, type CredentialSource } from '../api';

/** What `POST /auth/token` answers: a short-lived bearer token for one workspace. */
export type AccessGrant = AccessTokenBody;

export type Role = AccessGrant['role'];

/** Renew this long before the token expires, so no request goes out with a token about to lapse. */
const RENEW_BEFORE_MS = 60_000;

/**
 * The member's access token for the workspace in use, kept in memory only (never in storage): minted
 * from the session cookie, renewed a minute before it expires and once when the API answers 401.
 * When the session itself is gone, `onSignedOut` is told.
 */
export class AccessTokens implements CredentialSource {
  #workspaceId: string | null = null;
  #grant: Promise<AccessGrant> | null = null;
  /** A mint under way: requests refused together wait for the same new token. */
  #minting: Promise<AccessGrant> | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #onSignedOut: () => void;

  constructor(onSignedOut: () => void) {
    this.#onSignedOut = onSignedOut;
  }

  /** Switches to a workspace: mints its token (the member's role comes with it). */
  use(workspaceId: string): Promise<AccessGrant> {
    if (this.#workspaceId === workspaceId && this.#grant !== null) return this.#grant;
    this.#workspaceId = workspaceId;
    return this.#mint();
  }

  async current(): Promise<string | null> {
    if (this.#grant === null) return null;
    try {
      return (await this.#grant).accessToken;
    } catch {
      return null;
    }
  }

  async renew(): Promise<string | null> {
    if (this.#workspaceId === null) return null;
    try {
      return (await (this.#minting ?? this.#mint())).accessToken;
    } catch {
      return null;
    }
  }

  /** Forgets the token (sign-out). */
  clear(): void {
    clearTimeout(this.#timer);
    this.#workspaceId = null;
    this.#grant = null;
    this.#minting = null;
  }

  #mint(): Promise<AccessGrant> {
    clearTimeout(this.#timer);
    const workspaceId = this.#workspaceId;
    const grant = api<AccessGrant>('/auth/token', { method: 'POST', body: { workspaceId }, anonymous: true });
    this.#grant = grant;
    this.#minting = grant;
    const settled = () => {
      if (this.#minting === grant) this.#minting = null;
    };
    grant.then(settled, settled);
    grant.then(
      (minted) => {
        if (this.#grant !== grant) return;
        const renewIn = Math.max(5_000, Date.parse(minted.expiresAt) - Date.now() - RENEW_BEFORE_MS);
        this.#timer = setTimeout(() => void this.renew(), renewIn);
      },
      (error: unknown) => {
        if (this.#grant === grant && error instanceof ApiError && error.status === 401) this.#onSignedOut();
      },
    );
    return grant;
  }
}
