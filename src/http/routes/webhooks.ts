import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DELIVERY_LOG_LIMIT, HOOK_SAMPLES, type WebhookService } from '../../domain/webhooks.js';
import type { DeliveryRecord, WebhookEndpointRecord } from '../../store/store.js';
import { workspaceOf } from '../plugins/auth.js';
import { Id, IdParams, errorResponses } from '../schemas.js';
import {
  CreatedHook,
  CreatedWebhook,
  Delivery,
  EventSample,
  Hook,
  HookSamplesQuery,
  ListedWebhook,
  NewHook,
  NewWebhook,
  Webhook,
  WebhookChanges,
  automationEventType,
} from '../../contract/webhooks.js';

const DeliveryParams = Type.Object({ id: Id, deliveryId: Id });

const webhookView = ({ secret: _secret, workspaceId: _workspace, ...endpoint }: WebhookEndpointRecord) => endpoint;

/** A REST hook subscription as the automation platform reads it: `id` to unsubscribe with. */
const hookView = ({ id, events, url, createdAt }: WebhookEndpointRecord) => ({ id, event: events[0] ?? '', target_url: url, createdAt });

export const deliveryView = ({
  workspaceId: _workspace,
  endpointId: _endpoint,
  channel: _channel,
  updatedAt: _updated,
  ...delivery
}: DeliveryRecord) => delivery;

/**
 * Webhook endpoints: signed POSTs of the workspace's events, retried, logged and replayable; and REST hooks
 * (`/hooks`), the subscribe and unsubscribe calls of Zapier and other automation platforms, which make and
 * remove endpoints of their own.
 */
export const webhookRoutes: FastifyPluginAsyncTypebox<{ webhooks: WebhookService }> = async (app, { webhooks }) => {
  const tags = ['webhooks'];

  app.post(
    '/webhooks',
    {
      config: { adminOnly: true },
      schema: {
        tags,
        summary: 'Create a webhook endpoint; the answer is the only time its signing secret is shown',
        body: NewWebhook,
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
    {
      config: { adminOnly: true },
      schema: { tags, summary: 'List the workspace’s webhook endpoints', response: { 200: Type.Array(ListedWebhook), ...errorResponses() } },
    },
    async (request) =>
      (await webhooks.list(workspaceOf(request))).map(({ consecutiveFailures, ...endpoint }) => ({ ...webhookView(endpoint), consecutiveFailures })),
  );

  app.get(
    '/webhooks/:id',
    {
      config: { adminOnly: true },
      schema: { tags, summary: 'A webhook endpoint', params: IdParams, response: { 200: Webhook, ...errorResponses() } },
    },
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
        body: WebhookChanges,
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

  app.post(
    '/hooks',
    {
      config: { adminOnly: true, fieldPaths: { targetUrl: 'body.target_url' } },
      schema: {
        tags,
        summary: 'Subscribe a REST hook (Zapier’s subscribe): deliver one event type, signed, to `target_url`',
        body: NewHook,
        response: { 200: CreatedHook, ...errorResponses(413, 415) },
      },
    },
    async (request) => {
      const { target_url: targetUrl, url, event } = request.body;
      const endpoint = await webhooks.subscribe(workspaceOf(request), { targetUrl: targetUrl ?? url, event: automationEventType(event) });
      return { ...hookView(endpoint), secret: endpoint.secret };
    },
  );

  app.delete(
    '/hooks/:id',
    {
      config: { adminOnly: true },
      schema: {
        tags,
        summary: 'Unsubscribe a REST hook (Zapier’s unsubscribe); its deliveries stop',
        params: IdParams,
        response: { 200: Hook, ...errorResponses() },
      },
    },
    async (request) => hookView(await webhooks.unsubscribe(workspaceOf(request), request.params.id)),
  );

  app.get(
    '/hooks/samples',
    {
      config: { adminOnly: true },
      schema: {
        tags,
        summary: `The workspace’s latest ${HOOK_SAMPLES} events of a trigger, newest first, as deliveries carry them (Zapier’s performList)`,
        querystring: HookSamplesQuery,
        response: { 200: Type.Array(EventSample), ...errorResponses() },
      },
    },
    async (request) => webhooks.samples(workspaceOf(request), automationEventType(request.query.event)),
  );
};
