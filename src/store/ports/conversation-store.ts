/** Conversations: a visitor's exchange with an agent, and the people who take it over. */
import type { NewKnowledgeGap } from './analytics-store.js';
import type { MessageMatch, MessageRecord, NewMessage } from './message-store.js';
import type { NewOutboxEvent } from './outbox-store.js';
import type { ScopedReads } from './owned-records.js';

export type ConversationStatus = 'UNRESOLVED' | 'RESOLVED' | 'HUMAN_REQUESTED';

/** What the chat widget told of the page a conversation started on: text only, each capped by the domain. */
export interface VisitorContext {
  pageUrl?: string;
  referrer?: string;
  /** The browser's language, e.g. `en-GB`. */
  language?: string;
  userAgent?: string;
}

export interface ConversationRecord {
  id: string;
  workspaceId: string;
  /** Null once the agent is deleted; the conversation stays. */
  agentId: string | null;
  channel: string;
  channelExternalId: string | null;
  status: ConversationStatus;
  /** False once a person took over: the agent no longer answers. */
  isAiEnabled: boolean;
  /** Empty until the first human message names it. */
  title: string;
  metadata: Record<string, unknown>;
  visitorId: string | null;
  contactId: string | null;
  /** The member handling it; null while unassigned. */
  assigneeId: string | null;
  /** A signed-in member's question in the dashboard's playground: the team's own test, not a visitor's. */
  playground: boolean;
  /** What the widget told of the page it started on; null when nothing was told. */
  visitorContext: VisitorContext | null;
  createdAt: string;
  updatedAt: string;
}

/** A conversation to create when its id is not taken yet (clients make conversation ids up); not a playground one unless said. */
export type NewConversation = Omit<ConversationRecord, 'updatedAt' | 'assigneeId' | 'playground' | 'visitorContext'> & {
  playground?: boolean;
  visitorContext?: VisitorContext | null;
};

/** Narrows a conversation list; every field given must match. */
export interface ConversationFilter {
  agentId?: string;
  channel?: string;
  channelExternalId?: string;
  status?: ConversationStatus;
  /** true: not resolved (UNRESOLVED or HUMAN_REQUESTED). */
  open?: boolean;
  /** Assigned to this member. */
  assigneeId?: string;
  /** true: assigned to nobody. */
  unassigned?: boolean;
  /** Case-insensitive substring of the title, the contact's name, e-mail or phone, or any message text. */
  search?: string;
  /** Inclusive bounds on `createdAt`, ISO 8601 UTC. */
  createdFrom?: string;
  createdTo?: string;
  /** true: only the playground's conversations; false: none of them. */
  playground?: boolean;
  /** Carrying this label. */
  labelId?: string;
  /** Started by this visitor. */
  visitorId?: string;
}

/** Where a page of the list ordered by (updatedAt desc, id desc) starts: right after this row. */
export interface ConversationKey {
  updatedAt: string;
  id: string;
}

export interface ConversationPage {
  limit: number;
  after?: ConversationKey;
}

/** What a PATCH may change; `metadata` is merged into the stored object (top-level keys replaced). */
export interface ConversationChanges {
  status?: ConversationStatus;
  isAiEnabled?: boolean;
  metadata?: Record<string, unknown>;
  contactId?: string;
  /** A member of the workspace, or null to unassign. */
  assigneeId?: string | null;
}

/** Writes that belong to a change and commit or roll back with it. */
export interface ConversationEffects {
  /** Added when the change switches the agent off (isAiEnabled true → false). */
  onAiSwitchedOff?: NewMessage;
  /** Added when the change asks for a person (the status becomes HUMAN_REQUESTED). */
  onHumanRequested?: NewMessage;
  /** The event announcing a message one of these effects added (`message.created`), written with it. */
  announce?: (message: NewMessage) => NewOutboxEvent;
  /** Written to the outbox when the change gives the conversation another status than it had. */
  onStatusChanged?: NewOutboxEvent;
  /** Written to the outbox when it returns an event for what changed (after the status event). */
  onUpdated?: (update: ConversationUpdate) => NewOutboxEvent | undefined;
}

export interface ConversationUpdate {
  before: ConversationRecord;
  after: ConversationRecord;
}

/** What an agent answer appended while it streams may change until its end. */
export type AnswerRewrite = Pick<MessageRecord, 'workspaceId' | 'id' | 'text' | 'sources' | 'usage' | 'model' | 'interrupted'>;

/** A status a conversation takes only when it has another one: `to` when it is `from`, checked and changed in one statement. */
export interface StatusTransition {
  from: ConversationStatus;
  to: ConversationStatus;
}

/** What appending a message does besides, as the domain decided: each in the same transaction as the message. */
export interface AppendEffects {
  /** Applied when the conversation is in its `from` status. */
  transition?: StatusTransition;
  /** The title the conversation takes while it has none (an empty title). */
  titleIfUntitled?: string;
  /** Written to the outbox. */
  event?: NewOutboxEvent;
  /** Recorded: an agent answer that found nothing to answer from. */
  gap?: NewKnowledgeGap;
}

/** What an answer's end writes with it, as {@link ConversationStore.appendMessage} would have. */
export interface AnswerEnd {
  event: NewOutboxEvent;
  gap?: NewKnowledgeGap;
  at: string;
}

/** The conversation a message was appended to, as it is afterwards. */
export interface AppendedMessage {
  message: MessageRecord;
  conversation: ConversationRecord;
}

/**
 * A workspace's conversations and the messages added to them. Ids are unique per workspace only, so the
 * records written here carry the workspace id they are scoped by (`conversation.workspaceId`,
 * `message.workspaceId`). Every write that gives a conversation a status (its creation included) records
 * it in the conversation's status history in the same transaction (what analytics counts "ever" from).
 */
export interface ConversationStore extends ScopedReads<ConversationRecord> {
  /** Most recently active first (updatedAt desc, id desc), narrowed by `filter`, one page when `page` is given. */
  list(workspaceId: string, filter?: ConversationFilter, page?: ConversationPage): Promise<ConversationRecord[]>;
  /**
   * The workspace's conversation with this id, created from `conversation` when the workspace has none
   * (ids are unique per workspace: another workspace's conversation of the same id is another one).
   * `created` says which; `onCreated` goes to the outbox only then.
   */
  ensure(conversation: NewConversation, onCreated?: NewOutboxEvent): Promise<{ conversation: ConversationRecord; created: boolean }>;
  /**
   * Adds the message and bumps the conversation's `updatedAt`, with its `effects`, atomically. Undefined when
   * the conversation is not in the workspace.
   */
  appendMessage(message: NewMessage, effects?: AppendEffects): Promise<AppendedMessage | undefined>;
  /**
   * Rewrites an agent answer appended while it streamed: as it stands so far, or, with `end`, at its end,
   * writing its event and knowledge gap in the same transaction. Undefined when the message is not in the
   * workspace (its conversation was deleted meanwhile).
   */
  rewriteAnswer(answer: AnswerRewrite, end?: AnswerEnd): Promise<MessageRecord | undefined>;
  /** Applies `changes` and their `effects` in one transaction; undefined when not in the workspace. */
  update(
    workspaceId: string,
    id: string,
    changes: ConversationChanges,
    effects: ConversationEffects,
    at: string,
  ): Promise<ConversationUpdate | undefined>;
  /**
   * Sets the status of every workspace conversation matching the filter; returns how many matched.
   * `onChanged` gives the outbox event for each conversation whose status really changed.
   */
  bulkUpdateStatus(
    workspaceId: string,
    filter: ConversationFilter,
    status: ConversationStatus,
    at: string,
    onChanged?: (update: ConversationUpdate) => NewOutboxEvent,
  ): Promise<number>;
  /**
   * Marks the conversation's `unread` messages read; `onRead` goes to the outbox when there were some. The
   * number marked, undefined when the conversation is not in the workspace.
   */
  markRead(
    workspaceId: string,
    id: string,
    unread: MessageMatch,
    onRead: (conversation: ConversationRecord) => NewOutboxEvent,
  ): Promise<number | undefined>;
  /**
   * Per group of `groups` (each a filter of its own), among the conversations matching `filter`: how many it
   * holds, and how many of them have a message matching `unread`. One read for all groups (the inbox's tabs).
   */
  countGroups<Group extends string>(
    workspaceId: string,
    filter: ConversationFilter,
    groups: Readonly<Partial<Record<Group, ConversationFilter>>>,
    unread: MessageMatch,
  ): Promise<Partial<Record<Group, GroupCount>>>;
}

export interface GroupCount {
  total: number;
  unread: number;
}
