import type { MemberRecord, MemberRole, Store } from '../store/store.js';
import { conflict, notFound } from '../errors.js';
import { newId, now } from './ids.js';
import { findInWorkspace } from './scoped.js';

export interface MemberInput {
  email: string;
  name?: string;
  role?: MemberRole;
}

/** The people of a workspace; owners and admins receive its notification e-mails. */
export class MemberService {
  constructor(private readonly store: Store) {}

  list(workspaceId: string): Promise<MemberRecord[]> {
    return this.store.members.list(workspaceId);
  }

  async add(workspaceId: string, input: MemberInput): Promise<MemberRecord> {
    const member: MemberRecord = {
      id: newId(),
      workspaceId,
      email: input.email.trim().toLowerCase(),
      name: input.name?.trim() ?? '',
      role: input.role ?? 'admin',
      createdAt: now(),
    };
    if (!(await this.store.members.create(member))) throw conflict(`${member.email} is already a member of this workspace`);
    return member;
  }

  async remove(workspaceId: string, id: string): Promise<MemberRecord> {
    await findInWorkspace(this.store.members, 'Member', workspaceId, id);
    const removed = await this.store.members.delete(workspaceId, id);
    if (removed === undefined) throw notFound('Member', id);
    return removed;
  }
}
