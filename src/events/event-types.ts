import { monotonicFactory } from 'ulid';
import type { NewOutboxEvent, OutboxEventRecord } from '../store/store.js';

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

/** Time-ordered, so events of the same millisecond keep the order they happened in. */
const ulid = monotonicFactory();

/** An outbox event of `type` for the workspace, with a fresh id. */
export const newEvent = (workspaceId: string, type: EventType, payload: object): NewOutboxEvent => ({
  id: `evt_${ulid().toLowerCase()}`,
  workspaceId,
  type,
  payload: { ...payload },
});

/** What a webhook receives and an e-mail is rendered from: the event with its payload under `data`. */
export interface EventEnvelope {
  id: string;
  type: string;
  workspaceId: string;
  createdAt: string;
  data: Record<string, unknown>;
}

export const envelopeOf = (event: OutboxEventRecord): EventEnvelope => ({
  id: event.id,
  type: event.type,
  workspaceId: event.workspaceId,
  createdAt: event.createdAt,
  data: event.payload,
});
