import type { ConversationStatus } from '../queries/conversations';

/** Who wrote a message, as events tell it (conversation records add the name). */
export interface EventSender {
  type: 'user' | 'visitor' | 'agent';
  id: string | null;
}

interface Payloads {
  'conversation.created': {
    conversationId: string;
    agentId: string | null;
    channel: string;
    status: ConversationStatus;
    visitorId: string | null;
    contactId: string | null;
  };
  'message.created': {
    conversationId: string;
    message: { id: string; from: 'human' | 'agent' | 'system'; text: string; createdAt: string; sender: EventSender | null };
  };
  'conversation.updated': {
    conversationId: string;
    changed: ('status' | 'isAiEnabled' | 'assigneeId' | 'read')[];
    conversation: { id: string; status: ConversationStatus; isAiEnabled: boolean; assigneeId: string | null; updatedAt: string };
  };
  'human-requested': NotifyingPayload;
  'conversation-resolved': NotifyingPayload;
  'datasource.synched': DatasourcePayload & { chunks: number };
  'datasource.error': DatasourcePayload & { error: string };
}

/** What `human-requested` and `conversation-resolved` say (the e-mail notifications are made from it). */
export interface NotifyingPayload {
  conversationId: string;
  title: string;
  status: ConversationStatus;
  channel: string;
  agent: { id: string; name: string } | null;
  contact: { id: string; firstName: string | null; lastName: string | null; email: string | null; phoneNumber: string | null } | null;
  /** The last ten; a member's (also `from: human`) names them in `senderName`. */
  messages: { id: string; from: string; text: string; createdAt: string; senderName?: string }[];
}

export interface DatasourcePayload {
  datasourceId: string;
  datastoreId: string;
  name: string;
  type: string;
  customId: string | null;
}

export type LiveEventType = keyof Payloads;

/** The event types the dashboard follows: all it shows live. */
export const LIVE_EVENT_TYPES = [
  'conversation.created',
  'message.created',
  'conversation.updated',
  'human-requested',
  'conversation-resolved',
  'datasource.synched',
  'datasource.error',
] as const satisfies readonly LiveEventType[];

/** One event of `GET /events/stream`: the envelope webhooks receive, its payload under `data`. */
export type LiveEvent = {
  [Type in LiveEventType]: { id: string; type: Type; workspaceId: string; createdAt: string; data: Payloads[Type] };
}[LiveEventType];

/** What keeps a part of the query cache in step with the events. */
export interface LiveCache {
  /** An event arrived. */
  apply(event: LiveEvent): void;
  /** Events may have been missed (the stream could not resume): what is cached may be stale. */
  refetch(): void;
}
