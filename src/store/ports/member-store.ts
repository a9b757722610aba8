/** Members: the people of a workspace. */
import type { ScopedReads } from './owned-records.js';

export type MemberRole = 'owner' | 'admin' | 'member';

/** A person of the workspace; owners and admins are the administrators that notifications reach. */
export interface MemberRecord {
  id: string;
  workspaceId: string;
  email: string;
  name: string;
  role: MemberRole;
  createdAt: string;
}

/** A workspace's members, one per e-mail address. */
export interface MemberStore extends ScopedReads<MemberRecord> {
  /** False when the workspace already has a member with this e-mail. */
  create(member: MemberRecord): Promise<boolean>;
  delete(workspaceId: string, id: string): Promise<MemberRecord | undefined>;
}
