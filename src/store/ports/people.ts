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
  /** The generation the person's access tokens must carry; raising it revokes every token issued before. */
  authGeneration: number;
}

/** A person whose access tokens were revoked at least once, with the generation their tokens must now carry. */
export interface AuthGeneration {
  userId: string;
  generation: number;
}

/**
 * What the processes watching token generations tell each other. A subject is a user (their id: their
 * access tokens) or a deleted API key (`key:<key id>`, generation 1: processes that cache keys drop it).
 */
export type AuthNotice =
  /** A process raised the subject's generation. */
  | { kind: 'bump'; subject: string; generation: number }
  /** The watcher `watcherId` refuses, from now on, the subject's credentials below `generation`. */
  | { kind: 'applied'; watcherId: string; subject: string; generation: number };

/** One process's watch over the token generations (PostgreSQL). */
export interface AuthWatch {
  /** This watcher's name among the others. */
  readonly id: string;
  /** Tells every watcher that this one applied `generation` of the subject. */
  applied(subject: string, generation: number): Promise<void>;
  /** Tells every watcher that the subject is at `generation` now: a bump without a row (a deleted key). */
  announce(subject: string, generation: number): Promise<void>;
  /** The names of the watchers connected now, this one included. */
  watchers(): Promise<string[]>;
  stop(): Promise<void>;
}

export interface UserStore {
  /** Creates the user unless one has this e-mail; answers whichever is stored. */
  ensure(user: Omit<UserRecord, 'authGeneration'>): Promise<UserRecord>;
  find(id: string): Promise<UserRecord | undefined>;
  findByEmail(email: string): Promise<UserRecord | undefined>;
  update(id: string, changes: { name?: string; passwordHash?: string }, at: string): Promise<UserRecord | undefined>;
  /** Whether anyone has ever set a password: an instance without one still needs its setup link. */
  anyWithPassword(): Promise<boolean>;
  /**
   * Revokes every access token of the user issued so far and answers the new generation; on PostgreSQL the
   * change is announced to every process (`watchAuthGenerations`).
   */
  bumpAuthGeneration(id: string): Promise<number>;
  /** Every user with a generation above 0: the table each process keeps in memory. */
  authGenerations(): Promise<AuthGeneration[]>;
  /**
   * Announces every process's bumps, and what each process applied (PostgreSQL NOTIFY); null after a lost
   * connection came back (bumps may have been missed). Absent on SQLite, where `foreignWrites` serves instead.
   */
  watchAuthGenerations?(listener: (notice: AuthNotice | null) => void): Promise<AuthWatch>;
  /** SQLite: a number that changes whenever another connection (another process) commits a write. */
  foreignWrites?(): number;
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
  /** Revokes every live session of the user but `exceptId` (the one the person is using). */
  revokeAll(userId: string, at: string, exceptId?: string): Promise<void>;
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
  /**
   * Stores a link; earlier unused links of the same purpose and holder stop working (only the newest counts):
   * any setup link; the person's reset links, whoever made them; the membership's invitation links.
   */
  create(link: OneTimeLinkRecord, tokenHash: string): Promise<void>;
  /** Every unused link of this purpose held by the subject's person or membership (as `create`) stops working. */
  revokeAll(purpose: LinkPurpose, subject: Pick<OneTimeLinkRecord, 'userId' | 'workspaceId' | 'memberId'>, at: string): Promise<void>;
  /** The unused, unexpired link of this purpose, without using it up. */
  peek(tokenHash: string, purpose: LinkPurpose, at: string): Promise<OneTimeLinkRecord | undefined>;
  /** Uses the link up, once: a second call (or a concurrent one) gets undefined. */
  consume(tokenHash: string, purpose: LinkPurpose, at: string): Promise<OneTimeLinkRecord | undefined>;
}
