import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DEFAULT_RANGE_DAYS, MAX_RANGE_DAYS, type AnalyticsService } from '../../domain/analytics.js';
import { Day, Report } from '../../contract/analytics.js';
import { workspaceOf } from '../plugins/auth.js';
import { errorResponses } from '../schemas.js';
import { Channel } from '../../contract/conversation-selection.js';

const AnalyticsQuery = Type.Object({
  from: Type.Optional(Day(`First day (UTC), included; ${DEFAULT_RANGE_DAYS} days before \`to\` when absent`)),
  to: Type.Optional(Day(`Last day (UTC), included; today when absent. At most ${MAX_RANGE_DAYS} days after \`from\``)),
  agentId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only this agent’s conversations' })),
  channel: Type.Optional(Channel),
  includePlayground: Type.Boolean({
    default: false,
    description: 'true: count the conversations members started in the dashboard’s playground too (the team’s own tests, left out by default)',
  }),
});

export const analyticsRoutes: FastifyPluginAsyncTypebox<{ analytics: AnalyticsService }> = async (app, { analytics }) => {
  app.get(
    '/analytics',
    {
      schema: {
        tags: ['analytics'],
        summary: 'Conversation and answer figures over a range of days, and the questions the agents could not answer',
        description:
          'Conversation figures are about the conversations started in the range; ratings, datasources cited and ' +
          'knowledge gaps about the agent answers written in it. Days are UTC days. The conversations members ' +
          'start in the dashboard’s playground are left out unless includePlayground is true.',
        querystring: AnalyticsQuery,
        response: { 200: Report, ...errorResponses() },
      },
    },
    async (request) => analytics.report(workspaceOf(request), request.query),
  );
};
