import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { NotificationService } from '../../domain/notifications.js';
import type { RateLimitSettings } from '../../domain/rate-limits.js';
import type { WorkspaceService } from '../../domain/workspaces.js';
import { DELIVERY_LOG_LIMIT } from '../../domain/webhooks.js';
import { NOTIFYING_EVENTS } from '../../events/event-types.js';
import { workspaceOf } from '../plugins/auth.js';
import { errorResponses } from '../schemas.js';
import { Delivery, deliveryView } from './webhooks.js';

const Audience = Type.Object(
  {
    admins: Type.Boolean({ description: 'E-mail the workspace’s owners and admins (see /members)' }),
    customer: Type.Boolean({ description: 'E-mail the conversation’s contact, when it has an address' }),
  },
  { additionalProperties: false },
);

const byEvent = <T extends ReturnType<typeof Type.Object>>(schema: T, optional: boolean) =>
  Type.Object(
    Object.fromEntries(NOTIFYING_EVENTS.map((event) => [event, optional ? Type.Optional(schema) : schema])),
    { additionalProperties: false },
  );

const perMinute = (description: string) => Type.Integer({ minimum: 1, maximum: 1_000_000, description });

const RateLimits = Type.Object({
  keyPerMinute: perMinute('Requests a minute per API key'),
  ipPerMinute: perMinute('Requests a minute per client IP on public routes (agents and datastores used without a key)'),
  visitorPerMinute: perMinute('Requests a minute per visitor (visitor token) on public routes'),
});

const Settings = Type.Object({
  name: Type.String({ description: 'The workspace’s name' }),
  notifications: byEvent(Audience, false),
  emailEnabled: Type.Boolean({ description: 'Read-only: an SMTP server is configured (PARLEY_SMTP_URL), so e-mail can go out' }),
  rateLimits: RateLimits,
});

export type SettingsBody = Static<typeof Settings>;

const RateLimitChanges = Type.Object(
  Object.fromEntries(
    Object.entries(RateLimits.properties).map(([field, schema]) => [field, Type.Optional(Type.Union([schema, Type.Null()]))]),
  ),
  { additionalProperties: false, description: 'Limits to change; null returns one to the server default' },
);

export interface WorkspaceRoutesOptions {
  workspaces: WorkspaceService;
  notifications: NotificationService;
  rateLimits: RateLimitSettings;
}

/** The workspace itself: its notification settings, its rate limits and the log of its e-mails. */
export const workspaceRoutes: FastifyPluginAsyncTypebox<WorkspaceRoutesOptions> = async (app, { workspaces, notifications, rateLimits }) => {
  app.get(
    '/workspace/settings',
    {
      schema: {
        tags: ['workspace'],
        summary: 'Who is e-mailed on `conversation-resolved` and `human-requested`, and the rate limits in force',
        response: { 200: Settings, ...errorResponses() },
      },
    },
    async (request) => {
      const workspaceId = workspaceOf(request);
      const { name } = await workspaces.get(workspaceId);
      return { name, ...(await notifications.get(workspaceId)), rateLimits: await rateLimits.forWorkspace(workspaceId) };
    },
  );

  app.patch(
    '/workspace/settings',
    {
      config: { adminOnly: true },
      schema: {
        tags: ['workspace'],
        summary: 'Change the notification settings and rate limits; what is left out keeps its value',
        body: Type.Object(
          {
            name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
            notifications: Type.Optional(byEvent(Type.Partial(Audience), true)),
            rateLimits: Type.Optional(RateLimitChanges),
          },
          { additionalProperties: false },
        ),
        response: { 200: Settings, ...errorResponses(413, 415) },
      },
    },
    async (request) => {
      const workspaceId = workspaceOf(request);
      const changes = request.body.rateLimits;
      const limits = changes === undefined ? await rateLimits.forWorkspace(workspaceId) : await rateLimits.update(workspaceId, changes);
      const { name } = request.body.name === undefined ? await workspaces.get(workspaceId) : await workspaces.rename(workspaceId, request.body.name);
      return { name, ...(await notifications.update(workspaceId, request.body)), rateLimits: limits };
    },
  );

  app.get(
    '/workspace/email-deliveries',
    {
      config: { adminOnly: true },
      schema: {
        tags: ['workspace'],
        summary: `The latest ${DELIVERY_LOG_LIMIT} notification e-mails, newest first, with every attempt`,
        response: { 200: Type.Array(Delivery), ...errorResponses() },
      },
    },
    async (request) => (await notifications.emailLog(workspaceOf(request))).map(deliveryView),
  );
};
