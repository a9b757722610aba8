import { conflict, notFound } from '../errors.js';
import type { MemberRecord, MemberRole, Store } from '../store/store.js';
import type { AccountService } from './accounts.js';
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

/** The people of a workspace and their roles; owners and admins receive its notification e-mails. */
export class MemberService {
  constructor(
    private readonly store: Store,
    private readonly accounts: AccountService,
    private readonly links: OneTimeLinks,
    private readonly mailer: InvitationMailer | undefined,
  ) {}

  list(workspaceId: string): Promise<MemberRecord[]> {
    return this.store.members.list(workspaceId);
  }

  /**
   * Invites a person by e-mail: a user (without a password until they accept) and an invited membership,
   * with a single-use link; 409 when they are a member already.
   */
  async invite(workspaceId: string, input: MemberInput): Promise<Invited> {
    const user = await this.accounts.ensureUser(input.email, input.name ?? '');
    const member = {
      id: newId(),
      workspaceId,
      userId: user.id,
      email: user.email,
      name: user.name,
      role: input.role ?? 'admin',
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
  async reinvite(workspaceId: string, id: string): Promise<Invited> {
    const member = await findInWorkspace(this.store.members, 'Member', workspaceId, id);
    const user = await this.store.users.find(member.userId);
    if (member.status === 'active' && user?.passwordHash) throw conflict(`${member.email} can sign in already; a password reset is theirs to ask for`);
    return this.sendInvitation(workspaceId, member);
  }

  async changeRole(workspaceId: string, id: string, role: MemberRole): Promise<MemberRecord> {
    await findInWorkspace(this.store.members, 'Member', workspaceId, id);
    const changed = await this.store.members.changeRole(workspaceId, id, role);
    if (changed === 'last-owner') throw lastOwner();
    if (changed === undefined) throw notFound('Member', id);
    return changed;
  }

  async remove(workspaceId: string, id: string): Promise<MemberRecord> {
    await findInWorkspace(this.store.members, 'Member', workspaceId, id);
    const removed = await this.store.members.delete(workspaceId, id);
    if (removed === 'last-owner') throw lastOwner();
    if (removed === undefined) throw notFound('Member', id);
    return removed;
  }
}
