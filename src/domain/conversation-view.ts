import type { AgentRecord, ContactRecord, ConversationRecord, MessageRecord, VisitorRecord } from '../store/store.js';

/** A conversation with what its records point at. */
export interface ConversationView {
  conversation: ConversationRecord;
  agent: AgentRecord | null;
  contact: ContactRecord | null;
  /** Oldest first: all of them, the latest only or none, as asked. */
  messages: MessageRecord[];
}

/** The detail record: the view plus every visitor who wrote in it, with their contacts. */
export interface ConversationDetails extends ConversationView {
  visitors: { visitor: VisitorRecord; contact: ContactRecord | null }[];
}

/** Which messages a list view carries. */
export type ListedMessages = 'latest' | 'all' | 'none';
