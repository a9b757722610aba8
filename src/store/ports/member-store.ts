/** Members: a person's place in a workspace, with a role. */
import type { ScopedReads } from './owned-records.js';

export type MemberRole = 'owner' | 'admin' | 'member';

/** A person's place in a workspace; owners and admins are the administrators that notifications reach. */
export interface MemberRecord {
  id: string;
  workspaceId: string;
  userId: string;
  /** The user's e-mail and name. */
  email: string;
  name: string;
  role: MemberRole;
  /** `invited` until the person accepts the invitation (sets a password or signs in). */
  status: 'active' | 'invited';
  createdAt: string;
}

export interface NewMember extends Omit<MemberRecord, 'status'> {
  /** Null for an open invitation. */
  acceptedAt: string | null;
}

/** A membership with the name of its workspace, for a person's list of workspaces. */
export interface WorkspaceMembership {
  member: MemberRecord;
  workspaceName: string;
}

/** A workspace's members, one per user. */
export interface MemberStore extends ScopedReads<MemberRecord> {
  /** False when the user is already a member of the workspace. */
  create(member: NewMember): Promise<boolean>;
  findByUser(workspaceId: string, userId: string): Promise<MemberRecord | undefined>;
  /** Workspace-free on purpose: the workspaces one person belongs to (oldest workspace first). */
  listByUser(userId: string): Promise<WorkspaceMembership[]>;
  /** Marks an invited member as having accepted. */
  accept(workspaceId: string, id: string, at: string): Promise<void>;
  /** `last-owner` when it would leave the workspace without an owner; undefined when not in the workspace. */
  changeRole(workspaceId: string, id: string, role: MemberRole): Promise<MemberRecord | 'last-owner' | undefined>;
  delete(workspaceId: string, id: string): Promise<MemberRecord | 'last-owner' | undefined>;
}
