/** Messages: what visitors, agents and the system said in a conversation. */

export type MessageFrom = 'human' | 'agent' | 'system';

export type MessageEval = 'GOOD' | 'BAD';

/**
 * What a system message the server wrote tells the visitor, by kind with its parameters, so a client can
 * word it in the visitor's language (the message text is the English wording).
 * humanRequested: a person will answer (`email`: where the team can also reply); personJoined: the member
 * `name` took over; aiSwitchedOff: the agent was switched off and nobody is named; reopened: the visitor's
 * message reopened a resolved conversation.
 */
export type MessageNotice =
  { kind: 'humanRequested'; email?: string } | { kind: 'personJoined'; name: string } | { kind: 'aiSwitchedOff' } | { kind: 'reopened' };

/** Token counts of the model call that produced a message. */
export interface MessageUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** One passage an agent answer drew on, kept with the answer: the n-th is what the answer's `[n]` cites. */
export interface AnswerSourceRecord {
  chunkId: string;
  datasourceId: string;
  /** The datasource's name when the answer was written. */
  datasourceName: string;
  datasourceType: string;
  sourceUrl: string | null;
  customId: string | null;
  mimeType: string | null;
  pageNumber: number | null;
  totalPages: number | null;
  /** The passage's retrieval score. */
  score: number;
  text: string;
}

export interface MessageRecord {
  id: string;
  workspaceId: string;
  conversationId: string;
  from: MessageFrom;
  text: string;
  /** What an agent answer was drawn from, in the order it cites them. */
  sources: AnswerSourceRecord[];
  eval: MessageEval | null;
  read: boolean;
  attachments: Record<string, unknown>[];
  usage: MessageUsage | null;
  model: string | null;
  visitorId: string | null;
  /** The member who wrote it, answering for the workspace; null for visitors, the agent and the system. */
  memberId: string | null;
  createdAt: string;
  /**
   * An agent answer that stopped before its end (the caller left, the model failed, the server stopped):
   * the text is what had been written. Also true while an answer is being written.
   */
  interrupted: boolean;
  /** What a server-written system message tells, by kind; null for every other message. */
  notice: MessageNotice | null;
  /** The channel vendor's id of the message: one that came from outside, or what we sent out; unique per conversation. */
  channelMessageId: string | null;
  /** How a message that leaves through a channel (e-mail, a messenger) fared; null for the rest. */
  delivery: MessageDelivery | null;
  /**
   * A member's private note: only members see it. Never shown or sent to the visitor (history, streams,
   * channels, e-mail), never part of an answer's history, never a reply (status, unread, first response).
   */
  private: boolean;
}

/**
 * pending: queued or being retried; sent: the vendor took it; delivered, read: the vendor said so later;
 * failed: given up (`error` says why, in Parley's words).
 */
export interface MessageDelivery {
  state: 'pending' | 'sent' | 'delivered' | 'read' | 'failed';
  error: string | null;
}

export type NewMessage = Omit<MessageRecord, 'eval' | 'private' | 'channelMessageId' | 'delivery'> & {
  /** A private note (false unless said). */
  private?: boolean;
  /** The channel vendor's id of a message that came from outside: unique per conversation. */
  channelMessageId?: string;
  /** Set on a message that will leave through a channel. */
  delivery?: MessageDelivery;
};

/** Messages by what they are; every field given must match (the domain names what a match means, e.g. unread). */
export interface MessageMatch {
  read?: boolean;
  from?: MessageFrom;
  /** true: written by a member (`memberId` set); false: by anyone else. */
  byMember?: boolean;
  /** true: private notes only; false: none of them. */
  private?: boolean;
}

/** A workspace's messages; they are added through the conversation store, with their conversation. */
export interface MessageStore {
  /** The message if it exists in this workspace. */
  find(workspaceId: string, id: string): Promise<MessageRecord | undefined>;
  /** The workspace that owns `id`, whichever it is; workspace-free like every `ownerOf`, to tell 403 from 404. */
  ownerOf(id: string): Promise<string | undefined>;
  /**
   * The messages of these conversations, oldest first (createdAt, id); with `latest`, only each
   * conversation's last `latest` ones.
   */
  listByConversations(workspaceId: string, conversationIds: readonly string[], options?: { latest?: number }): Promise<MessageRecord[]>;
  /**
   * Each conversation's first message (createdAt, id) matching `match`, by conversation id; conversations
   * without one are left out.
   */
  firstMatching(workspaceId: string, conversationIds: readonly string[], match: MessageMatch): Promise<Map<string, MessageRecord>>;
  /** How many of each conversation's messages match `match`; conversations with none are left out. */
  countMatching(workspaceId: string, conversationIds: readonly string[], match: MessageMatch): Promise<Map<string, number>>;
  /** The conversation's message that came from outside with the vendor's id `channelMessageId`, if stored. */
  findByChannelMessageId(workspaceId: string, conversationId: string, channelMessageId: string): Promise<MessageRecord | undefined>;
  /** How the message fared on its way out through a channel; `channelMessageId` is the vendor's id of what was sent. */
  recordDelivery(workspaceId: string, id: string, delivery: MessageDelivery, channelMessageId?: string): Promise<void>;
  /** Sets or clears the rating; undefined when the message is not in the workspace. */
  rate(workspaceId: string, id: string, value: MessageEval | null): Promise<MessageRecord | undefined>;
  /** Agent answers the workspace received since `since` (ISO time), for the query quota. */
  countAgentAnswersSince(workspaceId: string, since: string): Promise<number>;
}
