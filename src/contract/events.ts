import type { ConversationStatus, MessageBody } from './conversations.js';
import type { NoticeBody } from './visitor-conversation.js';

/** Every event Parley emits; webhooks subscribe to any of them. */
export const EVENT_TYPES = [
  'conversation-resolved',
  'human-requested',
  'conversation.created',
  'conversation.updated',
  'message.created',
  'datasource.synched',
  'datasource.error',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** The two events of the spec (§6); e-mail notifications follow them. */
export const NOTIFYING_EVENTS = ['conversation-resolved', 'human-requested'] as const;

export type NotifyingEvent = (typeof NOTIFYING_EVENTS)[number];

export const isNotifyingEvent = (type: string): type is NotifyingEvent => (NOTIFYING_EVENTS as readonly string[]).includes(type);

type MessageFrom = MessageBody['from'];

/** What a `conversation-resolved` or `human-requested` event says: what webhooks and notification e-mails tell. */
export interface ConversationEventPayload {
  conversationId: string;
  title: string;
  status: ConversationStatus;
  channel: string;
  agent: { id: string; name: string } | null;
  contact: {
    id: string;
    firstName: string | null;
    lastName: string | null;
    email: string | null;
    phoneNumber: string | null;
  } | null;
  /** The latest messages (ten at most), oldest first; `senderName` names a member, an agent or a contact who wrote it. */
  messages: { id: string; from: MessageFrom; text: string; createdAt: string; senderName?: string }[];
}

/** `conversation.created`: a conversation began (an agent query, the widget, the API). */
export interface ConversationCreatedPayload {
  conversationId: string;
  agentId: string | null;
  channel: string;
  status: ConversationStatus;
  visitorId: string | null;
  contactId: string | null;
}

/** Who wrote a message, as events tell it (conversation records add the name); null for the system. */
export interface EventSender {
  type: 'user' | 'visitor' | 'agent';
  id: string | null;
}

/** `message.created`: someone (a member, a visitor, the agent, the system) wrote in a conversation. */
export interface MessageCreatedPayload {
  conversationId: string;
  message: {
    id: string;
    from: MessageFrom;
    text: string;
    createdAt: string;
    sender: EventSender | null;
    /** A server-written notice says what it tells, so a client can word it in its visitor's language. */
    notice?: NoticeBody;
    /**
     * A member's private note: for the team only. Whoever relays messages to the visitor (a channel's sender,
     * a client of the event stream) must skip it; webhooks never receive it.
     */
    private?: true;
  };
}

/** What `conversation.updated` reports as changed. */
export type ConversationChange = 'status' | 'isAiEnabled' | 'assigneeId' | 'read';

/** `conversation.updated`: its status, agent switch or assignee changed, or a member read it. */
export interface ConversationUpdatedPayload {
  conversationId: string;
  changed: ConversationChange[];
  conversation: { id: string; status: ConversationStatus; isAiEnabled: boolean; assigneeId: string | null; updatedAt: string };
}

/** What `datasource.synched` and `datasource.error` say about the datasource. */
export interface DatasourceEventPayload {
  datasourceId: string;
  datastoreId: string;
  name: string;
  type: string;
  customId: string | null;
}

/** Each event's payload, by type: what the outbox stores, webhooks receive under `data` and streams send. */
export interface EventPayloads {
  'conversation-resolved': ConversationEventPayload;
  'human-requested': ConversationEventPayload;
  'conversation.created': ConversationCreatedPayload;
  'conversation.updated': ConversationUpdatedPayload;
  'message.created': MessageCreatedPayload;
  'datasource.synched': DatasourceEventPayload & { chunks: number };
  'datasource.error': DatasourceEventPayload & { error: string };
}

/** What a webhook receives, an e-mail is rendered from and `GET /events/stream` sends: the event with its payload under `data`. */
export type EventEnvelope<Type extends EventType = EventType> = {
  [T in Type]: { id: string; type: T; workspaceId: string; createdAt: string; data: EventPayloads[T] };
}[Type];

/** Whether the event is one e-mail notifications follow, its payload typed so. */
export const isNotifyingEnvelope = (event: EventEnvelope): event is EventEnvelope<NotifyingEvent> => isNotifyingEvent(event.type);
