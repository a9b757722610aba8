import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { NotificationService } from '../../domain/notifications.js';
import type { RateLimitSettings } from '../../domain/rate-limits.js';
import type { WorkspaceService } from '../../domain/workspaces.js';
import { DELIVERY_LOG_LIMIT } from '../../domain/webhooks.js';
import { workspaceOf } from '../plugins/auth.js';
import { errorResponses } from '../schemas.js';
import { Delivery } from '../../contract/webhooks.js';
import { WorkspaceChanges, WorkspaceSettings } from '../../contract/workspace.js';
import { deliveryView } from './webhooks.js';

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
        response: { 200: WorkspaceSettings, ...errorResponses() },
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
        body: WorkspaceChanges,
        response: { 200: WorkspaceSettings, ...errorResponses(413, 415) },
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
