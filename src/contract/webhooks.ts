import { Type, type Static } from '@sinclair/typebox';
import { EVENT_TYPES, type EventType } from './events.js';
import { Nullable, StringEnum, Timestamp } from './json-schema.js';

/** Webhook endpoints and their deliveries (webhooks and notification e-mails) as the API answers them. */

/** Who made an endpoint: a member (`POST /webhooks`), or an automation platform subscribing (`POST /hooks`). */
export const WEBHOOK_SOURCES = ['webhooks', 'automation'] as const;

export type WebhookSource = (typeof WEBHOOK_SOURCES)[number];

export const Webhook = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  description: Type.String(),
  enabled: Type.Boolean({ description: 'A disabled endpoint receives no new events' }),
  source: StringEnum(WEBHOOK_SOURCES, {
    description:
      'webhooks: made by a member; automation: a REST hook subscription of Zapier or another automation platform ' +
      '(`POST /hooks`), removed when it unsubscribes or its target answers 410 Gone',
  }),
  createdAt: Timestamp('When the endpoint was created'),
  updatedAt: Timestamp('Last change'),
});

export const CreatedWebhook = Type.Composite([
  Webhook,
  Type.Object({
    secret: Type.String({
      description: 'Signs every delivery (`Parley-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">`). Shown only in this answer.',
    }),
  }),
]);

export const ListedWebhook = Type.Composite([
  Webhook,
  Type.Object({
    consecutiveFailures: Type.Integer({
      minimum: 0,
      description:
        'How many of the latest deliveries (tried at least once, not succeeded, retrying or given up) came since the ' +
        'newest one that succeeded: 0 when the endpoint receives events; more says it is failing',
    }),
  }),
]);

export const Attempt = Type.Object({
  attempt: Type.Integer(),
  startedAt: Timestamp('When the attempt began'),
  durationMs: Type.Integer(),
  statusCode: Nullable(Type.Integer({ description: 'HTTP status the receiver answered (SMTP reply code for e-mail)' })),
  error: Nullable(Type.String()),
  responseExcerpt: Nullable(Type.String({ description: 'The first KiB of the receiver’s answer' })),
});

export const Delivery = Type.Object({
  id: Type.String({ description: 'Sent as `Parley-Delivery`; the same on every retry' }),
  eventId: Type.String(),
  eventType: Type.String(),
  status: StringEnum(['pending', 'succeeded', 'failed'], {
    description: 'pending: not received yet, retried with backoff; failed: gave up after the last attempt',
  }),
  attemptCount: Type.Integer(),
  lastStatusCode: Nullable(Type.Integer()),
  lastError: Nullable(Type.String()),
  nextAttemptAt: Nullable(Timestamp('When the next retry is due')),
  replayOf: Nullable(Type.String({ description: 'The delivery this one replays' })),
  recipients: Nullable(Type.Array(Type.String(), { description: 'E-mail deliveries: the addresses' })),
  createdAt: Timestamp('When the delivery was queued'),
  completedAt: Nullable(Timestamp('When it succeeded or was given up')),
  attempts: Type.Array(Attempt),
  body: Type.String({ description: 'The JSON sent: `{id, type, workspaceId, createdAt, data}`' }),
});

const EventTypes = Type.Array(StringEnum(EVENT_TYPES), {
  minItems: 1,
  maxItems: EVENT_TYPES.length,
  description:
    'Event types to receive. `conversation-resolved` and `human-requested` carry the conversation, its agent, contact ' +
    'and latest messages; `conversation.created`, `message.created`, `datasource.synched` and `datasource.error` carry ' +
    'the conversation, message or datasource they are about.',
});

const WebhookUrl = Type.String({
  format: 'uri',
  maxLength: 2000,
  description: 'http(s) URL receiving a POST per event; private, loopback and link-local addresses are refused',
});

/** `POST /webhooks`. */
export const NewWebhook = Type.Object({
  url: WebhookUrl,
  events: EventTypes,
  description: Type.Optional(Type.String({ maxLength: 500 })),
  enabled: Type.Optional(Type.Boolean()),
});

/** `PATCH /webhooks/{id}`: any of them. */
export const WebhookChanges = Type.Object({
  url: Type.Optional(WebhookUrl),
  events: Type.Optional(EventTypes),
  description: Type.Optional(Type.String({ maxLength: 500 })),
  enabled: Type.Optional(Type.Boolean()),
});

/** The triggers an automation subscribes to, by their trigger names, and the event each one follows. */
export const AUTOMATION_TRIGGERS = {
  new_conversation: 'conversation.created',
  new_message: 'message.created',
  conversation_resolved: 'conversation-resolved',
} as const satisfies Record<string, EventType>;

export type AutomationTrigger = keyof typeof AUTOMATION_TRIGGERS;

const isTrigger = (event: string): event is AutomationTrigger => Object.hasOwn(AUTOMATION_TRIGGERS, event);

/** The event type a subscription's `event` names: a trigger name or an event type itself. */
export const automationEventType = (event: AutomationTrigger | EventType): EventType => (isTrigger(event) ? AUTOMATION_TRIGGERS[event] : event);

/**
 * `POST /hooks`: a REST hook subscription, as Zapier sends it (`target_url` and `event`; its CLI's examples
 * name the URL `url`).
 */
export const NewHook = Type.Object({
  target_url: Type.Optional(WebhookUrl),
  url: Type.Optional(WebhookUrl),
  event: StringEnum([...(Object.keys(AUTOMATION_TRIGGERS) as AutomationTrigger[]), ...EVENT_TYPES], {
    description:
      'new_conversation (conversation.created), new_message (message.created: a visitor’s, the agent’s or a member’s ' +
      'message; never a private note) or conversation_resolved (conversation-resolved); any event type is accepted too',
  }),
});

/** `GET /hooks/samples`: which trigger's samples. */
export const HookSamplesQuery = Type.Object({ event: NewHook.properties.event });

/** An event as a delivery's body carries it. */
export const EventSample = Type.Object({
  id: Type.String({ description: 'The event’s id: the same in the delivery, so a Zap can tell samples and deliveries apart' }),
  type: Type.String(),
  workspaceId: Type.String(),
  createdAt: Timestamp('When it happened'),
  data: Type.Object({}, { additionalProperties: true, description: 'As the event type says (README, Events)' }),
});

/** What a subscription answers: `id` is what the platform keeps to unsubscribe (`DELETE /hooks/{id}`). */
export const Hook = Type.Object({
  id: Type.String(),
  event: Type.String({ description: 'The event type delivered (a trigger name is answered as its event type)' }),
  target_url: Type.String(),
  createdAt: Timestamp('When it subscribed'),
});

export const CreatedHook = Type.Composite([
  Hook,
  Type.Object({
    secret: Type.String({
      description: 'Signs every delivery, as a webhook’s (`Parley-Signature`). Shown only in this answer.',
    }),
  }),
]);

export type WebhookBody = Static<typeof Webhook>;
export type NewHookBody = Static<typeof NewHook>;
export type HookBody = Static<typeof Hook>;
export type CreatedHookBody = Static<typeof CreatedHook>;
export type CreatedWebhookBody = Static<typeof CreatedWebhook>;
export type ListedWebhookBody = Static<typeof ListedWebhook>;
export type DeliveryBody = Static<typeof Delivery>;
export type WebhookChangesBody = Static<typeof WebhookChanges>;
