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
 * Who makes a request, as authentication resolved it. The domain decides what each may do: a key acts
 * for its whole workspace; a visitor only within its grant; an anonymous caller only on public resources.
 */
export type Caller =
  | { kind: 'key'; workspaceId: string; keyId: string }
  | { kind: 'visitor'; grant: VisitorGrant }
  | { kind: 'anonymous' };

/** The workspace a caller acts for with full rights; null for visitors and anonymous callers. */
export const keyWorkspace = (caller: Caller): string | null => (caller.kind === 'key' ? caller.workspaceId : null);
