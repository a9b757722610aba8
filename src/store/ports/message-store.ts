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
  | { kind: 'humanRequested'; email?: string }
  | { kind: 'personJoined'; name: string }
  | { kind: 'aiSwitchedOff' }
  | { kind: 'reopened' };

/** Token counts of the model call that produced a message. */
export interface MessageUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface MessageRecord {
  id: string;
  workspaceId: string;
  conversationId: string;
  from: MessageFrom;
  text: string;
  /** What the answer was drawn from; the element shape is the query endpoint's. */
  sources: Record<string, unknown>[];
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
}

export type NewMessage = Omit<MessageRecord, 'eval'>;

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
  listByConversations(
    workspaceId: string,
    conversationIds: readonly string[],
    options?: { latest?: number },
  ): Promise<MessageRecord[]>;
  /** How many of each conversation's visitor messages are unread; conversations with none are left out. */
  unreadCounts(workspaceId: string, conversationIds: readonly string[]): Promise<Map<string, number>>;
  /** Sets or clears the rating; undefined when the message is not in the workspace. */
  rate(workspaceId: string, id: string, value: MessageEval | null): Promise<MessageRecord | undefined>;
  /** Agent answers the workspace received since `since` (ISO time), for the query quota. */
  countAgentAnswersSince(workspaceId: string, since: string): Promise<number>;
}
