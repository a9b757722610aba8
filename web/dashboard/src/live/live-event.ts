import type { EventEnvelope, EventType } from '../../../../src/contract/events';

/** The event types the dashboard follows: all it shows live. */
export const LIVE_EVENT_TYPES = [
  'conversation.created',
  'message.created',
  'conversation.updated',
  'human-requested',
  'conversation-resolved',
  'datasource.synched',
  'datasource.error',
] as const satisfies readonly EventType[];

export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];

/** One event of `GET /events/stream`: the envelope webhooks receive, its payload under `data`. */
export type LiveEvent = EventEnvelope<LiveEventType>;

/** What keeps a part of the query cache in step with the events. */
export interface LiveCache {
  /** An event arrived. */
  apply(event: LiveEvent): void;
  /** Events may have been missed (the stream could not resume): what is cached may be stale. */
  refetch(): void;
}
