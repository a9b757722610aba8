import { conflict, forbidden, invalid, ParleyError, unauthorized } from '../errors.js';
import type { MemberRole, SessionRecord, Store, UserRecord, WorkspaceMembership } from '../store/store.js';
import type { AccessTokens, IssuedAccessToken } from './access-tokens.js';
import { newId, now, randomToken } from './ids.js';
import { joinWorkspace } from './memberships.js';
import { hashSecret, type IssuedLink, type OneTimeLinks } from './one-time-links.js';
import { checkPasswordRules, hashPassword, passwordMatches } from './passwords.js';

/** A session unused this long is over (DESIGN §7: listed, revocable, ends after 30 days idle). */
const SESSION_IDLE_MS = 30 * 24 * 3600_000;
/** `lastSeenAt` is refreshed at most this often, so a busy dashboard is not a write per request. */
const TOUCH_RESOLUTION_MS = 60_000;

/** A signed-in person: the user and the session whose secret the cookie holds. */
export interface SignedIn {
  user: UserRecord;
  session: SessionRecord;
  /** The cookie's value; only ever in the answer that sets it. */
  sessionSecret: string;
}

export interface Me {
  user: UserRecord;
  /** Active memberships, oldest workspace first. */
  memberships: WorkspaceMembership[];
}

export interface AccountOptions {
  /** `PARLEY_SIGNUP=open`: anyone may create an account and a workspace of their own. */
  signUpOpen: boolean;
}

const normalizeEmail = (email: string): string => email.trim().toLowerCase();

const wrongCredentials = () => unauthorized('Wrong e-mail or password');

/**
 * People who sign in to the dashboard: the first owner's setup, sign-in and sign-up, sessions (server-side,
 * the cookie holds a random secret whose hash is stored), access tokens for the public API, invitations,
 * password resets and the person's own account.
 */
export class AccountService {
  constructor(
    private readonly store: Store,
    private readonly links: OneTimeLinks,
    private readonly tokens: AccessTokens,
    private readonly options: AccountOptions,
  ) {}

  async setupStatus(): Promise<{ setupRequired: boolean; signUpOpen: boolean }> {
    return { setupRequired: !(await this.store.users.anyWithPassword()), signUpOpen: this.options.signUpOpen };
  }

  /** The first run's link to create the owner account; none once someone has a password. */
  async setupLink(): Promise<IssuedLink | undefined> {
    if (await this.store.users.anyWithPassword()) return undefined;
    return this.links.issue('setup', { userId: null, workspaceId: null, memberId: null });
  }

  /** Uses the setup link: the person becomes a user with a password and an owner of the first workspace. */
  async setup(input: { token: string; email: string; name: string; password: string }, userAgent: string): Promise<SignedIn> {
    checkPasswordRules(input.password);
    const [workspace] = await this.store.workspaces.list();
    if (workspace === undefined) throw new ParleyError('UNAVAILABLE', 'The instance has no workspace yet; start Parley once with `parley start`');
    await this.links.consume('setup', input.token);
    const user = await this.ensureUser(input.email, input.name);
    await this.store.users.update(user.id, { name: input.name.trim() || user.name, passwordHash: await hashPassword(input.password) }, now());
    await joinWorkspace(this.store, workspace.id, user, 'owner');
    return this.startSession(user.id, userAgent);
  }

  async signUp(input: { email: string; name: string; password: string; workspaceName: string }, userAgent: string): Promise<SignedIn> {
    if (!this.options.signUpOpen) throw new ParleyError('NOT_FOUND', 'Sign-up is closed on this instance; ask an owner for an invitation');
    checkPasswordRules(input.password);
    if ((await this.store.users.findByEmail(normalizeEmail(input.email)))?.passwordHash) throw conflict('This e-mail already has an account; sign in');
    const user = await this.ensureUser(input.email, input.name);
    await this.store.users.update(user.id, { passwordHash: await hashPassword(input.password) }, now());
    const at = now();
    const workspace = { id: newId(), name: input.workspaceName.trim() || `${input.name}'s workspace`, createdAt: at };
    await this.store.workspaces.create(workspace);
    await joinWorkspace(this.store, workspace.id, user, 'owner');
    return this.startSession(user.id, userAgent);
  }

  /** A wrong e-mail and a wrong password give the same answer, in the same time. */
  async signIn(input: { email: string; password: string }, userAgent: string): Promise<SignedIn> {
    const user = await this.store.users.findByEmail(normalizeEmail(input.email));
    if (!(await passwordMatches(user?.passwordHash ?? null, input.password)) || user === undefined) throw wrongCredentials();
    return this.startSession(user.id, userAgent);
  }

  /** The live session a cookie's secret names, refreshing when it was last seen; undefined when none. */
  async session(secret: string): Promise<{ user: UserRecord; session: SessionRecord } | undefined> {
    const session = await this.store.sessions.findLive(hashSecret(secret));
    if (session === undefined) return undefined;
    const at = Date.now();
    if (at - Date.parse(session.lastSeenAt) > SESSION_IDLE_MS) return undefined;
    if (at - Date.parse(session.lastSeenAt) > TOUCH_RESOLUTION_MS) await this.store.sessions.touch(session.id, new Date(at).toISOString());
    const user = await this.store.users.find(session.userId);
    return user && { user, session };
  }

  async signOut(secret: string): Promise<void> {
    const found = await this.session(secret);
    if (found !== undefined) await this.store.sessions.revoke(found.user.id, found.session.id, now());
  }

  listSessions(userId: string): Promise<SessionRecord[]> {
    return this.store.sessions.listLive(userId);
  }

  async revokeSession(userId: string, id: string): Promise<void> {
    if (!(await this.store.sessions.revoke(userId, id, now()))) throw new ParleyError('NOT_FOUND', `Session ${id} does not exist`);
  }

  /**
   * An access token for one workspace of the session's person (the first when none is named): the
   * credential the dashboard calls the public API with. A revoked or idle session mints nothing.
   */
  async mintAccessToken(secret: string, workspaceId?: string): Promise<IssuedAccessToken & { workspaceId: string; role: MemberRole }> {
    const found = await this.session(secret);
    if (found === undefined) throw unauthorized('Sign in again: the session has ended');
    const memberships = (await this.store.members.listByUser(found.user.id)).filter(({ member }) => member.status === 'active');
    const membership = workspaceId === undefined ? memberships[0] : memberships.find(({ member }) => member.workspaceId === workspaceId);
    if (membership === undefined) {
      throw workspaceId === undefined ? forbidden('User', found.user.id) : forbidden('Workspace', workspaceId);
    }
    const { member } = membership;
    const issued = await this.tokens.issue({ userId: found.user.id, workspaceId: member.workspaceId, role: member.role, sessionId: found.session.id });
    return { ...issued, workspaceId: member.workspaceId, role: member.role };
  }

  async me(userId: string): Promise<Me> {
    const user = await this.store.users.find(userId);
    if (user === undefined) throw unauthorized('This account no longer exists');
    const memberships = (await this.store.members.listByUser(userId)).filter(({ member }) => member.status === 'active');
    return { user, memberships };
  }

  /** Changes the person's name and, given the current one, password. */
  async updateMe(userId: string, changes: { name?: string; password?: string; currentPassword?: string }): Promise<UserRecord> {
    const user = (await this.me(userId)).user;
    let passwordHash: string | undefined;
    if (changes.password !== undefined) {
      if (user.passwordHash !== null && !(await passwordMatches(user.passwordHash, changes.currentPassword ?? ''))) {
        throw invalid('The current password is wrong', [{ field: 'currentPassword', message: 'is not your current password' }]);
      }
      passwordHash = await hashPassword(changes.password);
    }
    const name = changes.name?.trim();
    if (name === '') throw invalid('A name cannot be blank', [{ field: 'name', message: 'must not be blank' }]);
    return (await this.store.users.update(userId, { name, passwordHash }, now())) ?? user;
  }

  /** What an invitation link offers, for the page that accepts it. */
  async invitation(token: string): Promise<{ email: string; workspaceName: string; role: MemberRole; hasPassword: boolean }> {
    const link = await this.links.peek('invitation', token);
    const { user, membership } = await this.invitedMembership(link.userId, link.workspaceId);
    return { email: user.email, workspaceName: membership.workspaceName, role: membership.member.role, hasPassword: user.passwordHash !== null };
  }

  /**
   * Accepts an invitation: a person without a password sets one; a person with one proves it. Either way
   * the membership becomes active and the person is signed in.
   */
  async acceptInvitation(input: { token: string; name?: string; password: string }, userAgent: string): Promise<SignedIn> {
    const peeked = await this.links.peek('invitation', input.token);
    const { user, membership } = await this.invitedMembership(peeked.userId, peeked.workspaceId);
    if (user.passwordHash === null) checkPasswordRules(input.password);
    else if (!(await passwordMatches(user.passwordHash, input.password))) throw wrongCredentials();
    await this.links.consume('invitation', input.token);
    const name = input.name?.trim();
    if (user.passwordHash === null || name) {
      await this.store.users.update(user.id, { name: name || undefined, passwordHash: user.passwordHash === null ? await hashPassword(input.password) : undefined }, now());
    }
    await this.store.members.accept(membership.member.workspaceId, membership.member.id, now());
    return this.startSession(user.id, userAgent);
  }

  /** A one-time link that sets a new password (for `parley users reset-password`). */
  async passwordResetLink(email: string): Promise<IssuedLink> {
    const user = await this.store.users.findByEmail(normalizeEmail(email));
    if (user === undefined) throw new ParleyError('NOT_FOUND', `No user has the e-mail ${email}`);
    return this.links.issue('password-reset', { userId: user.id, workspaceId: null, memberId: null });
  }

  async resetPassword(input: { token: string; password: string }, userAgent: string): Promise<SignedIn> {
    checkPasswordRules(input.password);
    const link = await this.links.consume('password-reset', input.token);
    const user = link.userId === null ? undefined : await this.store.users.find(link.userId);
    if (user === undefined) throw new ParleyError('NOT_FOUND', 'This link was used already, has expired or does not exist');
    await this.store.users.update(user.id, { passwordHash: await hashPassword(input.password) }, now());
    // A reset also opens the person's pending invitations: they proved they read the address's mail.
    for (const { member } of await this.store.members.listByUser(user.id)) {
      if (member.status === 'invited') await this.store.members.accept(member.workspaceId, member.id, now());
    }
    return this.startSession(user.id, userAgent);
  }

  /** The user with this e-mail, created without a password when there is none. */
  async ensureUser(email: string, name: string): Promise<UserRecord> {
    const at = now();
    const address = normalizeEmail(email);
    return this.store.users.ensure({ id: newId(), email: address, name: name.trim() || address.split('@')[0]!, passwordHash: null, createdAt: at, updatedAt: at });
  }

  private async invitedMembership(userId: string | null, workspaceId: string | null): Promise<{ user: UserRecord; membership: WorkspaceMembership }> {
    const user = userId === null ? undefined : await this.store.users.find(userId);
    const membership = user && (await this.store.members.listByUser(user.id)).find(({ member }) => member.workspaceId === workspaceId);
    if (user === undefined || membership === undefined) throw new ParleyError('NOT_FOUND', 'This invitation was withdrawn');
    return { user, membership };
  }

  private async startSession(userId: string, userAgent: string): Promise<SignedIn> {
    const user = await this.store.users.find(userId);
    if (user === undefined) throw unauthorized('This account no longer exists');
    const secret = randomToken(32);
    const at = now();
    const session: SessionRecord = { id: newId(), userId, userAgent: userAgent.slice(0, 300), createdAt: at, lastSeenAt: at, revokedAt: null };
    await this.store.sessions.create(session, hashSecret(secret));
    return { user, session, sessionSecret: secret };
  }
}
