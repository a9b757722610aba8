import { monotonicFactory } from 'ulid';
import type { EventEnvelope, EventPayloads, EventType } from '../contract/events.js';
import type { NewOutboxEvent, OutboxEventRecord } from '../store/store.js';

/** Time-ordered, so events of the same millisecond keep the order they happened in. */
const ulid = monotonicFactory();

/** An outbox event of `type` for the workspace, with a fresh id and the payload its type says. */
export const newEvent = <Type extends EventType>(workspaceId: string, type: Type, payload: EventPayloads[Type]): NewOutboxEvent => ({
  id: `evt_${ulid().toLowerCase()}`,
  workspaceId,
  type,
  payload: { ...payload },
});

/**
 * The stored event as webhooks, e-mails and streams carry it. The outbox holds only what {@link newEvent}
 * wrote, so the payload is the one its type says: read back here, once, for every reader.
 */
export const envelopeOf = (event: OutboxEventRecord): EventEnvelope =>
  ({
    id: event.id,
    type: event.type,
    workspaceId: event.workspaceId,
    createdAt: event.createdAt,
    data: event.payload,
  }) as unknown as EventEnvelope;

/** A member's private note: it stays with the team, so nothing that relays messages outside receives it. */
export const isPrivateNote = (event: EventEnvelope): boolean => event.type === 'message.created' && event.data.message.private === true;
