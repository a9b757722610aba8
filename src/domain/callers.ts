import type { MemberRole } from '../store/store.js';

/**
 * What a visitor token grants: continuing one conversation with one agent, as one visitor, in one
 * workspace. Its holder is the only caller without a key who may touch that conversation.
 */
export interface VisitorGrant {
  workspaceId: string;
  agentId: string;
  visitorId: string;
  conversationId: string;
}

/**
 * Who makes a request, as authentication resolved it. The domain decides what each may do: a member by
 * role, a key with the rights its maker has now (`userId`; the operator's keys, made at the first start or
 * with `parley keys create`, have none and act as an owner); a visitor only within its grant; an anonymous
 * caller only on public resources.
 */
export type Caller =
  | { kind: 'key'; workspaceId: string; keyId: string; userId: string | null; role: MemberRole }
  | { kind: 'member'; workspaceId: string; userId: string; role: MemberRole }
  | { kind: 'visitor'; grant: VisitorGrant }
  | { kind: 'anonymous' };

/** A caller acting for a workspace: an API key (its maker's rights) or a signed-in member (by role). */
export type WorkspaceCaller = Extract<Caller, { kind: 'key' | 'member' }>;

export const isWorkspaceCaller = (caller: Caller): caller is WorkspaceCaller => caller.kind === 'key' || caller.kind === 'member';

/** The workspace a caller acts for; null for visitors and anonymous callers (public resources only). */
export const callerWorkspace = (caller: Caller): string | null => (isWorkspaceCaller(caller) ? caller.workspaceId : null);

/** Owners and admins manage members, webhooks and workspace settings, in person or through keys they made. */
export const mayAdminister = (caller: WorkspaceCaller): boolean => caller.role !== 'member';

/** Only owners make, unmake or remove owners. */
export const isOwner = (caller: WorkspaceCaller): boolean => caller.role === 'owner';
