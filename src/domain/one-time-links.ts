import { createHash } from 'node:crypto';
import { ParleyError } from '../errors.js';
import type { LinkPurpose, OneTimeLinkRecord, Store } from '../store/store.js';
import { now, randomToken } from './ids.js';

/** How long each kind of link stays usable. */
const LIFETIME_MS: Readonly<Record<LinkPurpose, number>> = {
  setup: 24 * 3600_000,
  invitation: 7 * 24 * 3600_000,
  'password-reset': 24 * 3600_000,
};

/** Where each kind of link opens in the dashboard (docs/dashboard-api.md, "URLs": these URLs are a contract). */
const PAGE: Readonly<Record<LinkPurpose, string>> = {
  setup: '/dashboard/setup',
  invitation: '/dashboard/invitations',
  'password-reset': '/dashboard/reset-password',
};

export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** A link just made: the only moment its token exists outside the store (which keeps its hash). */
export interface IssuedLink {
  url: string;
  token: string;
  expiresAt: string;
}

export type LinkSubject = Pick<OneTimeLinkRecord, 'userId' | 'workspaceId' | 'memberId'>;

/** Single-use links into the dashboard (setup, invitations, password resets), stored as hashes. */
export class OneTimeLinks {
  constructor(
    private readonly store: Store,
    /** Read at each link: with PORT=0 the address is known only once the server listens. */
    private readonly publicUrl: () => string,
  ) {}

  async issue(purpose: LinkPurpose, subject: LinkSubject): Promise<IssuedLink> {
    const token = randomToken(24);
    const createdAt = now();
    const expiresAt = new Date(Date.parse(createdAt) + LIFETIME_MS[purpose]).toISOString();
    await this.store.links.create({ purpose, ...subject, createdAt, expiresAt }, hashSecret(token));
    return { url: `${this.publicUrl()}${PAGE[purpose]}?token=${token}`, token, expiresAt };
  }

  /** The link, still usable, without using it up; unknown, used and expired links are one 404. */
  async peek(purpose: LinkPurpose, token: string): Promise<OneTimeLinkRecord> {
    return this.found(await this.store.links.peek(hashSecret(token), purpose, now()));
  }

  async consume(purpose: LinkPurpose, token: string): Promise<OneTimeLinkRecord> {
    return this.found(await this.store.links.consume(hashSecret(token), purpose, now()));
  }

  private found(link: OneTimeLinkRecord | undefined): OneTimeLinkRecord {
    if (link === undefined) throw new ParleyError('NOT_FOUND', 'This link was used already, has expired or does not exist');
    return link;
  }
}
