import { conflict, forbidden, invalid, ParleyError, unauthorized } from '../errors.js';
import type { MemberRole, SessionRecord, Store, UserRecord, WorkspaceMembership } from '../store/store.js';
import type { AccessTokens, IssuedAccessToken } from './access-tokens.js';
import { newId, now, randomToken } from './ids.js';
import { joinWorkspace } from './memberships.js';
import { hashSecret, type IssuedLink, type OneTimeLinks } from './one-time-links.js';
import { checkPasswordRules, hashPassword, passwordMatches } from './passwords.js';
import type { TokenGenerations } from './token-generations.js';

/** A session unused this long is over (sessions are listed, revocable, and end after 30 days idle). */
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

/** Sends a password-reset link to the account's address. */
export type PasswordResetMailer = (reset: { to: string; url: string }) => Promise<void>;

export interface AccountOptions {
  /** `PARLEY_SIGNUP=open`: anyone may create an account and a workspace of their own. */
  signUpOpen: boolean;
  /** Sends reset links asked for with "Forgot password?"; absent without SMTP. */
  resetMailer?: PasswordResetMailer;
  /** Reports a reset e-mail that could not be made or sent (the person was answered already). */
  onBackgroundError: (error: unknown) => void;
}

/** How a reset asked for by e-mail address reaches the person: by e-mail, or (no SMTP) through an owner. */
export type ResetDelivery = 'email' | 'ask-an-owner';

const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** The part of an address before the @: a name for someone who gave none. */
export const localPart = (email: string): string => normalizeEmail(email).split('@')[0]!;

/** One answer whether the address's account has another password or is not for this link to set up. */
const wrongInvitationPassword = () => unauthorized('This is not the password of the Parley account of the invited address');

const wrongCredentials = () => unauthorized('Wrong e-mail or password');
const linkGone = () => new ParleyError('NOT_FOUND', 'This link was used already, has expired or does not exist');
const accountExists = () => conflict('This e-mail already has an account; sign in');

/** What an invitation link offers, for the page that accepts it; nothing about the invitee's account. */
export interface InvitationView {
  /** The address the invitation was sent to, as the inviter typed it. */
  email: string;
  workspaceName: string;
  role: MemberRole;
  /** The request comes from the invitee's own session: accepting needs no password. */
  signedIn: boolean;
}

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
    private readonly generations: TokenGenerations,
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

  /**
   * Uses the setup link: the person becomes a user with a password and an owner of the first workspace.
   * Only the newest link works, and none once anyone has a password (old start logs open nothing).
   */
  async setup(input: { token: string; email: string; name: string; password: string }, userAgent: string): Promise<SignedIn> {
    checkPasswordRules(input.password);
    const [workspace] = await this.store.workspaces.list();
    if (workspace === undefined) throw new ParleyError('UNAVAILABLE', 'The instance has no workspace yet; start Parley once with `parley start`');
    if (await this.store.users.anyWithPassword()) {
      await this.store.links.revokeAll('setup', { userId: null, workspaceId: null, memberId: null }, now());
      throw linkGone();
    }
    await this.links.consume('setup', input.token);
    const user = await this.ensureUser(input.email, input.name);
    await this.store.users.update(user.id, { name: input.name.trim() || user.name, passwordHash: await hashPassword(input.password) }, now());
    await joinWorkspace(this.store, workspace.id, user, 'owner');
    return this.startSession(user.id, userAgent);
  }

  /**
   * A new account with a workspace of its own. An address that is already someone's (a password, or a
   * membership, even without a password yet) is refused: sign-up never sets an existing person's password.
   */
  async signUp(input: { email: string; name: string; password: string; workspaceName: string }, userAgent: string): Promise<SignedIn> {
    if (!this.options.signUpOpen) throw new ParleyError('NOT_FOUND', 'Sign-up is closed on this instance; ask an owner for an invitation');
    checkPasswordRules(input.password);
    const existing = await this.store.users.findByEmail(normalizeEmail(input.email));
    if (existing !== undefined && !(await this.unclaimed(existing))) throw accountExists();
    const workspaceName = input.workspaceName.trim() || `${input.name.trim() || normalizeEmail(input.email)}'s workspace`;
    const workspace = { id: newId(), name: workspaceName, createdAt: now() };
    await this.createWorkspace(workspace);
    const user = await this.ensureUser(input.email, input.name);
    // Checked again on the stored user: someone may have claimed the address meanwhile.
    if (!(await this.unclaimed(user))) throw accountExists();
    await this.store.users.update(user.id, { passwordHash: await hashPassword(input.password) }, now());
    await joinWorkspace(this.store, workspace.id, user, 'owner');
    return this.startSession(user.id, userAgent);
  }

  /** Workspace names are unique: a taken one is 409, before anything else is written. */
  private async createWorkspace(workspace: { id: string; name: string; createdAt: string }): Promise<void> {
    const taken = () => conflict(`A workspace named "${workspace.name}" exists already; choose another name`);
    if ((await this.store.workspaces.findByName(workspace.name)) !== undefined) throw taken();
    try {
      await this.store.workspaces.create(workspace);
    } catch (error) {
      if ((await this.store.workspaces.findByName(workspace.name)) !== undefined) throw taken();
      throw error;
    }
  }

  /**
   * An address nobody has taken up yet: no password and no workspace it was let into (only open invitations).
   * Only such a user's password may be set by whoever holds an invitation link or signs up with it.
   */
  private async unclaimed(user: UserRecord): Promise<boolean> {
    if (user.passwordHash !== null) return false;
    return (await this.store.members.listByUser(user.id)).every(({ member }) => member.status === 'invited');
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

  /** Ends the session and every access token of the person (other devices' dashboards mint new ones from their sessions). */
  async signOut(secret: string): Promise<void> {
    const found = await this.session(secret);
    if (found === undefined) return;
    await this.store.sessions.revoke(found.user.id, found.session.id, now());
    await this.generations.revoke(found.user.id);
  }

  listSessions(userId: string): Promise<SessionRecord[]> {
    return this.store.sessions.listLive(userId);
  }

  async revokeSession(userId: string, id: string): Promise<void> {
    if (!(await this.store.sessions.revoke(userId, id, now()))) throw new ParleyError('NOT_FOUND', `Session ${id} does not exist`);
    await this.generations.revoke(userId);
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
    const issued = await this.tokens.issue({
      userId: found.user.id,
      workspaceId: member.workspaceId,
      role: member.role,
      sessionId: found.session.id,
      generation: found.user.authGeneration,
    });
    return { ...issued, workspaceId: member.workspaceId, role: member.role };
  }

  async me(userId: string): Promise<Me> {
    const user = await this.store.users.find(userId);
    if (user === undefined) throw unauthorized('This account no longer exists');
    const memberships = (await this.store.members.listByUser(userId)).filter(({ member }) => member.status === 'active');
    return { user, memberships };
  }

  /**
   * Changes the person's name and, given the current one, password. A new password signs out every other
   * session (`keepSessionId`, the one in use, stays) and revokes every access token.
   */
  async updateMe(
    userId: string,
    changes: { name?: string; password?: string; currentPassword?: string },
    keepSessionId?: string,
  ): Promise<UserRecord> {
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
    const updated = (await this.store.users.update(userId, { name, passwordHash }, now())) ?? user;
    if (passwordHash !== undefined) await this.signOutEverywhere(userId, keepSessionId);
    return updated;
  }

  private async signOutEverywhere(userId: string, keepSessionId?: string): Promise<void> {
    await this.store.sessions.revokeAll(userId, now(), keepSessionId);
    await this.generations.revoke(userId);
  }

  /**
   * What an invitation link offers, for the page that accepts it. It says nothing of the invitee's account
   * (whoever invited them holds the link too), only whether the caller's own session is the invitee's.
   */
  async invitation(token: string, sessionSecret: string | undefined): Promise<InvitationView> {
    const link = await this.links.peek('invitation', token);
    const { user, membership } = await this.invitedMembership(link.userId, link.workspaceId);
    const signedIn = sessionSecret !== undefined && (await this.session(sessionSecret))?.user.id === user.id;
    return { email: membership.member.email, workspaceName: membership.workspaceName, role: membership.member.role, signedIn };
  }

  /**
   * Accepts an invitation. The link proves nothing about who holds it (the inviter has it too), so it never
   * sets an existing person's password: the invitee accepts from their own session, or with their account's
   * password; only an address nobody has taken up yet gets the password chosen here. The membership
   * becomes active and the person is signed in.
   */
  async acceptInvitation(
    input: { token: string; name?: string; password?: string },
    userAgent: string,
    sessionSecret: string | undefined,
  ): Promise<SignedIn | { user: UserRecord; session: SessionRecord }> {
    const peeked = await this.links.peek('invitation', input.token);
    const { user, membership } = await this.invitedMembership(peeked.userId, peeked.workspaceId);
    const current = sessionSecret === undefined ? undefined : await this.session(sessionSecret);
    const accept = async () => {
      await this.links.consume('invitation', input.token);
      await this.store.members.accept(membership.member.workspaceId, membership.member.id, now());
    };
    if (current?.user.id === user.id) {
      await accept();
      return current;
    }
    if (input.password === undefined) {
      throw invalid('Enter a password, or sign in as the invited address first', [{ field: 'password', message: 'is required' }]);
    }
    if (user.passwordHash !== null) {
      if (!(await passwordMatches(user.passwordHash, input.password))) throw wrongInvitationPassword();
    } else if (!(await this.unclaimed(user))) {
      throw wrongInvitationPassword();
    } else {
      checkPasswordRules(input.password);
    }
    await accept();
    const name = input.name?.trim();
    if (user.passwordHash === null || name) {
      await this.store.users.update(
        user.id,
        { name: name || undefined, passwordHash: user.passwordHash === null ? await hashPassword(input.password) : undefined },
        now(),
      );
    }
    return this.startSession(user.id, userAgent);
  }

  /** A one-time link that sets a new password (for `parley users reset-password`). */
  async passwordResetLink(email: string): Promise<IssuedLink> {
    const user = await this.store.users.findByEmail(normalizeEmail(email));
    if (user === undefined) throw new ParleyError('NOT_FOUND', `No user has the e-mail ${email}`);
    return this.links.issue('password-reset', { userId: user.id, workspaceId: null, memberId: null });
  }

  /**
   * "Forgot password?": e-mails a reset link when the address has an account and SMTP is set. The answer
   * depends on the configuration only, and comes before the account is even looked up, so neither its
   * content nor its time tells whether the address has an account. The mail is sent from this process,
   * not queued: the queue would have to keep the usable link; a lost mail is asked for again.
   */
  requestPasswordReset(email: string): ResetDelivery {
    const mailer = this.options.resetMailer;
    if (mailer === undefined) return 'ask-an-owner';
    const send = async () => {
      const user = await this.store.users.findByEmail(normalizeEmail(email));
      if (user === undefined) return;
      const link = await this.links.issue('password-reset', { userId: user.id, workspaceId: null, memberId: null });
      await mailer({ to: user.email, url: link.url });
    };
    send().catch(this.options.onBackgroundError);
    return 'email';
  }

  /**
   * A reset link an owner of `workspaceId` makes for one of its members (shown to the owner, who hands it
   * on). Whoever holds it can take the account, so it is made only for a person who belongs to no other
   * workspace (an open invitation elsewhere counts), and checked again when it is used.
   */
  async ownerResetLink(userId: string, workspaceId: string, memberId: string): Promise<IssuedLink> {
    if (!(await this.onlyIn(userId, workspaceId))) {
      throw conflict(
        'This person also belongs to another workspace: only they may reset their password, with “Forgot password?” on the sign-in page (the link goes to their e-mail)',
      );
    }
    return this.links.issue('password-reset', { userId, workspaceId, memberId });
  }

  /** The person's memberships (open invitations too) are all in this workspace. */
  private async onlyIn(userId: string, workspaceId: string): Promise<boolean> {
    const memberships = await this.store.members.listByUser(userId);
    return memberships.length > 0 && memberships.every(({ member }) => member.workspaceId === workspaceId);
  }

  /**
   * Sets a new password with a reset link (only the newest works): every session and access token of the
   * person ends, then a new session starts. Open invitations stay open: joining a workspace is the
   * person's own choice.
   */
  async resetPassword(input: { token: string; password: string }, userAgent: string): Promise<SignedIn> {
    checkPasswordRules(input.password);
    const link = await this.links.consume('password-reset', input.token);
    const user = link.userId === null ? undefined : await this.store.users.find(link.userId);
    if (user === undefined) throw linkGone();
    // An owner's link stops working once the person joined (or was invited to) another workspace.
    if (link.workspaceId !== null && !(await this.onlyIn(user.id, link.workspaceId))) throw linkGone();
    await this.store.users.update(user.id, { passwordHash: await hashPassword(input.password) }, now());
    await this.signOutEverywhere(user.id);
    return this.startSession(user.id, userAgent);
  }

  /** The user with this e-mail, created without a password when there is none. */
  async ensureUser(email: string, name: string): Promise<UserRecord> {
    const at = now();
    const address = normalizeEmail(email);
    return this.store.users.ensure({
      id: newId(),
      email: address,
      name: name.trim() || localPart(address),
      passwordHash: null,
      createdAt: at,
      updatedAt: at,
    });
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
