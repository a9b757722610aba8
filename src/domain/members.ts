import { conflict, notFound, notPermitted } from '../errors.js';
import type { MemberRecord, MemberRole, Store } from '../store/store.js';
import { localPart, type AccountService } from './accounts.js';
import { isOwner, type WorkspaceCaller } from './callers.js';
import type { TokenGenerations } from './token-generations.js';
import { newId, now } from './ids.js';
import type { IssuedLink, OneTimeLinks } from './one-time-links.js';
import { findInWorkspace } from './scoped.js';

export interface MemberInput {
  email: string;
  name?: string;
  role?: MemberRole;
}

/** Sends the invitation e-mail; absent when no SMTP server is configured (the link is shown to copy). */
export type InvitationMailer = (invitation: { to: string; workspaceName: string; role: MemberRole; url: string }) => Promise<void>;

/** A member just invited, with the link that lets them in (shown once; also e-mailed when SMTP is set). */
export interface Invited {
  member: MemberRecord;
  invitation: IssuedLink;
  emailed: boolean;
}

const lastOwner = () => conflict('A workspace keeps at least one owner: make someone else an owner first');
const ownersOnly = () => notPermitted('Only owners make, unmake or remove owners');

/**
 * The people of a workspace and their roles; owners and admins receive its notification e-mails. Owners and
 * admins manage members (the routes check that); only owners grant, take or remove the owner role. A new
 * role or a removal ends the person's access tokens at once.
 */
export class MemberService {
  constructor(
    private readonly store: Store,
    private readonly accounts: AccountService,
    private readonly links: OneTimeLinks,
    private readonly generations: TokenGenerations,
    private readonly mailer: InvitationMailer | undefined,
  ) {}

  list(workspaceId: string): Promise<MemberRecord[]> {
    return this.store.members.list(workspaceId);
  }

  /**
   * Invites a person by e-mail: an invited membership of the address's user (made, without a password, when
   * there is none) with a single-use link; 409 when they are a member already. Until they accept, the member
   * shows the address and the name the inviter gave, nothing of an account the address may have.
   */
  async invite(caller: WorkspaceCaller, input: MemberInput): Promise<Invited> {
    const role = input.role ?? 'admin';
    if (role === 'owner' && !isOwner(caller)) throw ownersOnly();
    const { workspaceId } = caller;
    const user = await this.accounts.ensureUser(input.email, input.name ?? '');
    const member = {
      id: newId(),
      workspaceId,
      userId: user.id,
      email: user.email,
      name: input.name?.trim() || localPart(user.email),
      role,
      createdAt: now(),
    };
    if (!(await this.store.members.create({ ...member, acceptedAt: null }))) {
      throw conflict(`${user.email} is already a member of this workspace`);
    }
    return this.sendInvitation(workspaceId, { ...member, status: 'invited' });
  }

  private async sendInvitation(workspaceId: string, member: MemberRecord): Promise<Invited> {
    const invitation = await this.links.issue('invitation', { userId: member.userId, workspaceId, memberId: member.id });
    const workspaceName = (await this.store.workspaces.find(workspaceId))?.name ?? 'Parley';
    let emailed = false;
    if (this.mailer !== undefined) {
      // The invitation stands whether or not the mail goes out: the link is in the answer too.
      emailed = await this.mailer({ to: member.email, workspaceName, role: member.role, url: invitation.url }).then(
        () => true,
        () => false,
      );
    }
    return { member, invitation, emailed };
  }

  /**
   * A new invitation link for a member who cannot sign in yet: an open invitation, or a person without a
   * password (members recorded before people signed in). 409 for one who can sign in already.
   */
  async reinvite(caller: WorkspaceCaller, id: string): Promise<Invited> {
    const { workspaceId } = caller;
    const member = await findInWorkspace(this.store.members, 'Member', workspaceId, id);
    if (member.role === 'owner' && !isOwner(caller)) throw ownersOnly();
    if (member.status === 'active') throw conflict(`${member.email} is a member already; without a password they need a password-reset link`);
    return this.sendInvitation(workspaceId, member);
  }

  /**
   * A password-reset link for a member, shown to the owner who asks, to hand on. Owners only (an admin must
   * not be able to take an owner's account); an open invitation gets a new invitation link instead; a person
   * who belongs to another workspace too is refused (409): they reset it themselves, by e-mail.
   */
  async passwordResetLink(caller: WorkspaceCaller, id: string): Promise<{ member: MemberRecord; link: IssuedLink }> {
    if (!isOwner(caller)) throw notPermitted('Only owners make password-reset links for members');
    const member = await findInWorkspace(this.store.members, 'Member', caller.workspaceId, id);
    if (member.status === 'invited') throw conflict(`${member.email} has not accepted the invitation yet: make a new invitation link instead`);
    return { member, link: await this.accounts.ownerResetLink(member.userId, caller.workspaceId, member.id) };
  }

  async changeRole(caller: WorkspaceCaller, id: string, role: MemberRole): Promise<MemberRecord> {
    const { workspaceId } = caller;
    const member = await findInWorkspace(this.store.members, 'Member', workspaceId, id);
    if ((member.role === 'owner' || role === 'owner') && !isOwner(caller)) throw ownersOnly();
    const changed = await this.store.members.changeRole(workspaceId, id, role);
    if (changed === 'last-owner') throw lastOwner();
    if (changed === undefined) throw notFound('Member', id);
    if (member.role !== role) await this.generations.revoke(member.userId);
    return changed;
  }

  async remove(caller: WorkspaceCaller, id: string): Promise<MemberRecord> {
    const { workspaceId } = caller;
    const member = await findInWorkspace(this.store.members, 'Member', workspaceId, id);
    if (member.role === 'owner' && !isOwner(caller)) throw ownersOnly();
    const removed = await this.store.members.delete(workspaceId, id);
    if (removed === 'last-owner') throw lastOwner();
    if (removed === undefined) throw notFound('Member', id);
    await this.generations.revoke(member.userId);
    return removed;
  }
}
