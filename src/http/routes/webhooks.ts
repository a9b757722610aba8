import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DELIVERY_LOG_LIMIT, type WebhookService } from '../../domain/webhooks.js';
import { EVENT_TYPES } from '../../events/event-types.js';
import type { DeliveryRecord, WebhookEndpointRecord } from '../../store/store.js';
import { workspaceOf } from '../plugins/auth.js';
import { Id, IdParams, Nullable, StringEnum, Timestamp, errorResponses } from '../schemas.js';

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

const Webhook = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  description: Type.String(),
  enabled: Type.Boolean({ description: 'A disabled endpoint receives no new events' }),
  createdAt: Timestamp('When the endpoint was created'),
  updatedAt: Timestamp('Last change'),
});

const CreatedWebhook = Type.Composite([
  Webhook,
  Type.Object({
    secret: Type.String({
      description:
        'Signs every delivery (`Parley-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">`). Shown only in this answer.',
    }),
  }),
]);

const ListedWebhook = Type.Composite([
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

const Attempt = Type.Object({
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

export type WebhookBody = Static<typeof Webhook>;
export type CreatedWebhookBody = Static<typeof CreatedWebhook>;
export type ListedWebhookBody = Static<typeof ListedWebhook>;
export type DeliveryBody = Static<typeof Delivery>;

const DeliveryParams = Type.Object({ id: Id, deliveryId: Id });

const webhookView = ({ secret: _secret, workspaceId: _workspace, ...endpoint }: WebhookEndpointRecord) => endpoint;

export const deliveryView = ({ workspaceId: _workspace, endpointId: _endpoint, channel: _channel, updatedAt: _updated, ...delivery }: DeliveryRecord) =>
  delivery;

/** Webhook endpoints: signed POSTs of the workspace's events, retried, logged and replayable. */
export const webhookRoutes: FastifyPluginAsyncTypebox<{ webhooks: WebhookService }> = async (app, { webhooks }) => {
  const tags = ['webhooks'];

  app.post(
    '/webhooks',
    {
      config: { adminOnly: true },
      schema: {
        tags,
        summary: 'Create a webhook endpoint; the answer is the only time its signing secret is shown',
        body: Type.Object({
          url: WebhookUrl,
          events: EventTypes,
          description: Type.Optional(Type.String({ maxLength: 500 })),
          enabled: Type.Optional(Type.Boolean()),
        }),
        response: { 200: CreatedWebhook, ...errorResponses(413, 415) },
      },
    },
    async (request) => {
      const endpoint = await webhooks.create(workspaceOf(request), request.body);
      return { ...webhookView(endpoint), secret: endpoint.secret };
    },
  );

  app.get(
    '/webhooks',
    { config: { adminOnly: true }, schema: { tags, summary: 'List the workspace’s webhook endpoints', response: { 200: Type.Array(ListedWebhook), ...errorResponses() } } },
    async (request) => (await webhooks.list(workspaceOf(request))).map(({ consecutiveFailures, ...endpoint }) => ({ ...webhookView(endpoint), consecutiveFailures })),
  );

  app.get(
    '/webhooks/:id',
    { config: { adminOnly: true }, schema: { tags, summary: 'A webhook endpoint', params: IdParams, response: { 200: Webhook, ...errorResponses() } } },
    async (request) => webhookView(await webhooks.get(workspaceOf(request), request.params.id)),
  );

  app.patch(
    '/webhooks/:id',
    {
      config: { adminOnly: true },
      schema: {
        tags,
        summary: 'Change a webhook endpoint’s URL, events, description or enabled flag',
        params: IdParams,
        body: Type.Object({
          url: Type.Optional(WebhookUrl),
          events: Type.Optional(EventTypes),
          description: Type.Optional(Type.String({ maxLength: 500 })),
          enabled: Type.Optional(Type.Boolean()),
        }),
        response: { 200: Webhook, ...errorResponses(413, 415) },
      },
    },
    async (request) => webhookView(await webhooks.update(workspaceOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/webhooks/:id',
    {
      config: { adminOnly: true },
      schema: { tags, summary: 'Delete a webhook endpoint and its delivery log', params: IdParams, response: { 200: Webhook, ...errorResponses() } },
    },
    async (request) => webhookView(await webhooks.delete(workspaceOf(request), request.params.id)),
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      config: { adminOnly: true },
      schema: {
        tags,
        summary: `The endpoint’s latest ${DELIVERY_LOG_LIMIT} deliveries, newest first, with every attempt`,
        params: IdParams,
        response: { 200: Type.Array(Delivery), ...errorResponses() },
      },
    },
    async (request) => (await webhooks.deliveries(workspaceOf(request), request.params.id)).map(deliveryView),
  );

  app.post(
    '/webhooks/:id/deliveries/:deliveryId/replay',
    {
      config: { adminOnly: true },
      schema: {
        tags,
        summary: 'Send a delivery’s event again, as a new delivery (same body, new `Parley-Delivery`)',
        params: DeliveryParams,
        response: { 200: Delivery, ...errorResponses() },
      },
    },
    async (request) => deliveryView(await webhooks.replay(workspaceOf(request), request.params.id, request.params.deliveryId)),
  );
};
