import type { MemberRecord, MemberRole, Store, UserRecord } from '../store/store.js';
import { conflict } from '../errors.js';
import { newId, now } from './ids.js';

/**
 * Makes `user` an active member of the workspace with `role`, without an invitation: the first owner's
 * setup, sign-up and the command line, where the person is known already.
 */
export async function joinWorkspace(store: Store, workspaceId: string, user: UserRecord, role: MemberRole): Promise<MemberRecord> {
  const at = now();
  const existing = await store.members.findByUser(workspaceId, user.id);
  if (existing === undefined) {
    const member = { id: newId(), workspaceId, userId: user.id, email: user.email, name: user.name, role, createdAt: at };
    await store.members.create({ ...member, acceptedAt: at });
    return { ...member, status: 'active' };
  }
  const changed = existing.role === role ? existing : await store.members.changeRole(workspaceId, existing.id, role);
  if (changed === 'last-owner') throw conflict('A workspace keeps at least one owner: make someone else an owner first');
  await store.members.accept(workspaceId, existing.id, at);
  return { ...(changed ?? existing), status: 'active' };
}
