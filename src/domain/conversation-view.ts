import type { AgentRecord, ContactRecord, ConversationRecord, LabelRecord, MemberRecord, MessageRecord, VisitorRecord } from '../store/store.js';

/** A conversation with what its records point at. */
export interface ConversationView {
  conversation: ConversationRecord;
  agent: AgentRecord | null;
  contact: ContactRecord | null;
  /** Oldest first (newest first from ConversationViews.history): all of them, the latest only or none, as asked. */
  messages: MessageRecord[];
  /** The workspace's members: who wrote and who is assigned are named from them. */
  members: MemberRecord[];
  /** Visitor messages no member has read. */
  unreadCount: number;
  /** What it is called: its title, or its first visitor message's words when it has none stored. */
  title: string;
  /** The labels on it, by name. */
  labels: LabelRecord[];
}

/** The detail record: the view plus every visitor who wrote in it, with their contacts. */
export interface ConversationDetails extends ConversationView {
  visitors: { visitor: VisitorRecord; contact: ContactRecord | null }[];
  /** How many other conversations its visitor started in the workspace. */
  visitorConversations: number;
}

/** The contact's full name, or null without one. */
export const contactName = (contact: ContactRecord | null): string | null =>
  [contact?.firstName, contact?.lastName].filter((part) => part !== null && part !== undefined && part !== '').join(' ') || null;

/** Which messages a list view carries. */
export type ListedMessages = 'latest' | 'all' | 'none';

/** Who wrote a message: a member (user), the visitor or the agent; the spec's `from` alone cannot tell a member from a visitor. */
export interface MessageSender {
  type: 'user' | 'visitor' | 'agent';
  /** The member, visitor or agent id; null when no longer known (a deleted agent). */
  id: string | null;
  name: string | null;
}

/** The sender of one of the view's messages; null for system notices. */
export function senderOf(
  message: MessageRecord,
  view: Pick<ConversationView, 'conversation' | 'agent' | 'contact' | 'members'>,
): MessageSender | null {
  if (message.from === 'system') return null;
  if (message.from === 'agent') return { type: 'agent', id: view.conversation.agentId, name: view.agent?.name ?? null };
  if (message.memberId !== null) {
    return { type: 'user', id: message.memberId, name: view.members.find((member) => member.id === message.memberId)?.name ?? null };
  }
  return { type: 'visitor', id: message.visitorId ?? view.conversation.visitorId, name: contactName(view.contact) };
}
