/**
 * People who sign in to the dashboard, their sessions and the single-use links that let them in. Users
 * belong to no single workspace (a person can be a member of several), so these ports take no workspace
 * id; memberships are the members port's, which does.
 */

export interface UserRecord {
  id: string;
  /** Lower case; unique across the instance. */
  email: string;
  name: string;
  /** Argon2id; null until the person sets a password (migrated members, open invitations). */
  passwordHash: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface UserStore {
  /** Creates the user unless one has this e-mail; answers whichever is stored. */
  ensure(user: UserRecord): Promise<UserRecord>;
  find(id: string): Promise<UserRecord | undefined>;
  findByEmail(email: string): Promise<UserRecord | undefined>;
  update(id: string, changes: { name?: string; passwordHash?: string }, at: string): Promise<UserRecord | undefined>;
  /** Whether anyone has ever set a password: an instance without one still needs its setup link. */
  anyWithPassword(): Promise<boolean>;
}

export interface SessionRecord {
  id: string;
  userId: string;
  userAgent: string;
  createdAt: string;
  lastSeenAt: string;
  revokedAt: string | null;
}

export interface SessionStore {
  create(session: SessionRecord, tokenHash: string): Promise<void>;
  /** The live (not revoked) session whose secret hashes to `tokenHash`. */
  findLive(tokenHash: string): Promise<SessionRecord | undefined>;
  touch(id: string, at: string): Promise<void>;
  /** Revokes one of the user's sessions; false when the user has none by that id. */
  revoke(userId: string, id: string, at: string): Promise<boolean>;
  /** The user's live sessions, most recently used first. */
  listLive(userId: string): Promise<SessionRecord[]>;
}

export type LinkPurpose = 'setup' | 'invitation' | 'password-reset';

export interface OneTimeLinkRecord {
  purpose: LinkPurpose;
  userId: string | null;
  workspaceId: string | null;
  memberId: string | null;
  createdAt: string;
  expiresAt: string;
}

export interface OneTimeLinkStore {
  create(link: OneTimeLinkRecord, tokenHash: string): Promise<void>;
  /** The unused, unexpired link of this purpose, without using it up. */
  peek(tokenHash: string, purpose: LinkPurpose, at: string): Promise<OneTimeLinkRecord | undefined>;
  /** Uses the link up, once: a second call (or a concurrent one) gets undefined. */
  consume(tokenHash: string, purpose: LinkPurpose, at: string): Promise<OneTimeLinkRecord | undefined>;
}
