import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { NotificationService } from '../../domain/notifications.js';
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

const Settings = Type.Object({
  notifications: byEvent(Audience, false),
  emailEnabled: Type.Boolean({ description: 'Read-only: an SMTP server is configured (PARLEY_SMTP_URL), so e-mail can go out' }),
});

/** The workspace itself: its notification settings and the log of its e-mails. */
export const workspaceRoutes: FastifyPluginAsyncTypebox<{ notifications: NotificationService }> = async (app, { notifications }) => {
  app.get(
    '/workspace/settings',
    { schema: { tags: ['workspace'], summary: 'Who is e-mailed on `conversation-resolved` and `human-requested`', response: { 200: Settings, ...errorResponses() } } },
    async (request) => notifications.get(workspaceOf(request)),
  );

  app.patch(
    '/workspace/settings',
    {
      schema: {
        tags: ['workspace'],
        summary: 'Change the notification settings; events and fields left out keep their values',
        body: Type.Object({ notifications: Type.Optional(byEvent(Type.Partial(Audience), true)) }, { additionalProperties: false }),
        response: { 200: Settings, ...errorResponses(413, 415) },
      },
    },
    async (request) => notifications.update(workspaceOf(request), request.body),
  );

  app.get(
    '/workspace/email-deliveries',
    {
      schema: {
        tags: ['workspace'],
        summary: 'The latest 100 notification e-mails, newest first, with every attempt',
        response: { 200: Type.Array(Delivery), ...errorResponses() },
      },
    },
    async (request) => (await notifications.emailLog(workspaceOf(request))).map(deliveryView),
  );
};
