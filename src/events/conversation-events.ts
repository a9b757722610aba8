import type {
  AgentRecord,
  ContactRecord,
  ConversationRecord,
  ConversationStatus,
  MessageRecord,
  NewConversation,
  NewMessage,
  NewOutboxEvent,
} from '../store/store.js';
import type { ConversationChange, ConversationEventPayload, EventSender, NotifyingEvent } from '../contract/events.js';
import { newEvent } from './event-types.js';

/** The events a status change emits (README, "Events: webhooks and e-mail"); a move back to UNRESOLVED emits none. */
const CONVERSATION_EVENT_TYPES: Readonly<Partial<Record<ConversationStatus, NotifyingEvent>>> = {
  RESOLVED: 'conversation-resolved',
  HUMAN_REQUESTED: 'human-requested',
};

/** How many of the latest messages an event carries: enough for a notification e-mail. */
export const EVENT_MESSAGE_COUNT = 10;

export interface ConversationEventInput {
  conversation: ConversationRecord;
  status: ConversationStatus;
  agent: AgentRecord | null;
  contact: ContactRecord | null;
  messages: readonly MessageRecord[];
  /** Who wrote each message, by message id, where known. */
  senderNames?: ReadonlyMap<string, string>;
}

/** The outbox event for moving the conversation to `status`; undefined when that status emits none. */
export function conversationStatusEvent(input: ConversationEventInput): NewOutboxEvent | undefined {
  const type = CONVERSATION_EVENT_TYPES[input.status];
  if (type === undefined) return undefined;
  const { conversation, agent, contact } = input;
  const payload: ConversationEventPayload = {
    conversationId: conversation.id,
    title: conversation.title,
    status: input.status,
    channel: conversation.channel,
    agent: agent && { id: agent.id, name: agent.name },
    contact: contact && {
      id: contact.id,
      firstName: contact.firstName,
      lastName: contact.lastName,
      email: contact.email,
      phoneNumber: contact.phoneNumber,
    },
    messages: input.messages.slice(-EVENT_MESSAGE_COUNT).map((message) => {
      const senderName = input.senderNames?.get(message.id);
      return {
        id: message.id,
        from: message.from,
        text: message.text,
        createdAt: message.createdAt,
        ...(senderName === undefined ? {} : { senderName }),
      };
    }),
  };
  return newEvent(conversation.workspaceId, type, payload);
}

/** `conversation.created`: a conversation began (an agent query, the widget, the API). */
export const conversationCreatedEvent = (conversation: NewConversation): NewOutboxEvent =>
  newEvent(conversation.workspaceId, 'conversation.created', {
    conversationId: conversation.id,
    agentId: conversation.agentId,
    channel: conversation.channel,
    status: conversation.status,
    visitorId: conversation.visitorId,
    contactId: conversation.contactId,
  });

/** Who wrote a message, as an event tells it: a member (user), the visitor, the agent; null for the system. */
const senderRef = (message: NewMessage, agentId: string | null): EventSender | null => {
  if (message.from === 'system') return null;
  if (message.from === 'agent') return { type: 'agent', id: agentId };
  return message.memberId === null ? { type: 'visitor', id: message.visitorId } : { type: 'user', id: message.memberId };
};

/** `message.created`: someone (a member, a visitor, the agent, the system) wrote in a conversation. */
export const messageCreatedEvent = (message: NewMessage, agentId: string | null): NewOutboxEvent =>
  newEvent(message.workspaceId, 'message.created', {
    conversationId: message.conversationId,
    message: {
      id: message.id,
      from: message.from,
      text: message.text,
      createdAt: message.createdAt,
      sender: senderRef(message, agentId),
      // A server-written notice says what it tells, so a client can word it in its visitor's language.
      ...(message.notice === null ? {} : { notice: message.notice }),
      // A channel's sender and any relay to the visitor skip it (see MessageCreatedPayload).
      ...(message.private === true ? { private: true as const } : {}),
    },
  });

/** `conversation.updated`: its status, agent switch or assignee changed, or a member read it. */
export function conversationUpdatedEvent(conversation: ConversationRecord, changed: readonly ConversationChange[]): NewOutboxEvent {
  return newEvent(conversation.workspaceId, 'conversation.updated', {
    conversationId: conversation.id,
    changed: [...changed],
    conversation: {
      id: conversation.id,
      status: conversation.status,
      isAiEnabled: conversation.isAiEnabled,
      assigneeId: conversation.assigneeId,
      updatedAt: conversation.updatedAt,
    },
  });
}

/** What an update changed of the fields `conversation.updated` reports; undefined when none. */
export function updatedEventFor({ before, after }: { before: ConversationRecord; after: ConversationRecord }): NewOutboxEvent | undefined {
  const changed = (['status', 'isAiEnabled', 'assigneeId'] as const).filter((field) => before[field] !== after[field]);
  return changed.length === 0 ? undefined : conversationUpdatedEvent(after, changed);
}
