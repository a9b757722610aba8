import type { AgentRecord, ConversationRecord, Store } from '../store/store.js';
import { notFound } from '../errors.js';
import type { Caller, VisitorGrant } from './callers.js';
import { randomToken } from './ids.js';
import { usableAgent } from './public-access.js';

/**
 * What a caller without a key may reach: the conversations it started, and no other. Parley's widget proves
 * that with the visitor token of each answer. The hosted service's widget never learnt tokens: it keeps the
 * visitor id it was given and sends it back, so the visitor ids made for callers without a key are secrets
 * too (144 random bits behind a prefix). An id that exists and is anyone else's answers like an unknown one.
 */

const VISITOR_SECRET = /^vis_[\w-]{24}$/;

/**
 * A conversation id a client without a key made up (the hosted widget makes cuids) must be long: a short one
 * an API client might use later (`order-42`) cannot be claimed first.
 */
const MADE_UP_CONVERSATION = /^[\w-]{20,128}$/;

export const newVisitorSecret = (): string => `vis_${randomToken(18)}`;

const isVisitorSecret = (id: string | undefined): id is string => id !== undefined && VISITOR_SECRET.test(id);

const grantIn = (caller: Caller, workspaceId: string): VisitorGrant | undefined =>
  caller.kind === 'visitor' && caller.grant.workspaceId === workspaceId ? caller.grant : undefined;

/** Whether a caller without a key started the conversation: its token's, or begun under the secret visitor id it sends. */
function startedBy(conversation: ConversationRecord, caller: Caller, visitorId: string | undefined): boolean {
  const grant = grantIn(caller, conversation.workspaceId);
  if (grant !== undefined && grant.conversationId === conversation.id && grant.agentId === conversation.agentId) return true;
  return isVisitorSecret(visitorId) && conversation.visitorId === visitorId;
}

/** Where a question without a key goes: absent, a new conversation; and who asks. */
export interface KeylessExchange {
  conversationId: string | undefined;
  visitorId: string;
}

/**
 * The conversation and visitor of a question to a public agent from a caller without a key. The asker is the
 * token's visitor, else the secret visitor id sent, else a new visitor (any other id is not theirs to claim).
 * A conversation id that does not exist in the workspace yet starts that conversation; one that exists must
 * be the caller's own, with this agent.
 */
export async function keylessExchange(
  store: Store,
  agent: AgentRecord,
  caller: Caller,
  conversationId: string | undefined,
  visitorId: string | undefined,
): Promise<KeylessExchange> {
  const asker = grantIn(caller, agent.workspaceId)?.visitorId ?? (isVisitorSecret(visitorId) ? visitorId : newVisitorSecret());
  if (conversationId === undefined) return { conversationId, visitorId: asker };
  const existing = await store.conversations.find(agent.workspaceId, conversationId);
  const reachable =
    existing === undefined ? MADE_UP_CONVERSATION.test(conversationId) : existing.agentId === agent.id && startedBy(existing, caller, visitorId);
  if (!reachable) throw notFound('Conversation', conversationId);
  return { conversationId, visitorId: existing?.visitorId ?? asker };
}

/**
 * A conversation read or rated by a caller without a key who started it, with a public agent (a page of an
 * origin the agent does not allow gets 403); 404 for anyone else, as for an unknown id.
 */
export async function keylessConversation(
  store: Store,
  caller: Caller,
  id: string,
  visitorId: string | undefined,
  origin: string | undefined,
): Promise<ConversationRecord> {
  const workspaceId =
    caller.kind === 'visitor' && caller.grant.conversationId === id ? caller.grant.workspaceId : await store.conversations.ownerOf(id);
  const conversation = workspaceId === undefined ? undefined : await store.conversations.find(workspaceId, id);
  if (conversation === undefined || !startedBy(conversation, caller, visitorId)) throw notFound('Conversation', id);
  const agent = conversation.agentId === null ? undefined : await store.agents.find(conversation.workspaceId, conversation.agentId);
  if (agent?.visibility !== 'public') throw notFound('Conversation', id);
  await usableAgent(store.agents, caller, agent.id, origin);
  return conversation;
}
