import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AgentService } from '../../domain/agents.js';
import type { AgentRecord } from '../../store/store.js';
import { workspaceOf } from '../plugins/auth.js';
import { widgetSettingsOf, type WidgetSettings as WidgetLook } from '../../domain/widget-settings.js';
import { isWorkspaceCaller } from '../../domain/callers.js';
import { WidgetConfig } from '../../contract/widget-settings.js';
import { IdParams, errorResponses } from '../schemas.js';
import { Agent, AgentInput, PublicAgent, type AgentBody } from '../../contract/agents.js';

const toPublicAgent = (agent: AgentRecord, settings: WidgetLook): Static<typeof PublicAgent> => ({
  id: agent.id,
  name: agent.name,
  iconUrl: agent.iconUrl,
  visibility: 'public',
  widget: settings,
  interfaceConfig: {
    displayName: settings.title ?? agent.name,
    primaryColor: settings.color,
    position: settings.position,
    ...(settings.theme === 'auto' ? {} : { theme: settings.theme }),
    initialMessages: [settings.greeting, ...settings.initialMessages].filter((text) => text !== ''),
    messageTemplates: settings.suggestedQuestions,
  },
  includeSources: true,
});

const toAgent = ({ widget, ...agent }: AgentRecord): AgentBody => ({
  ...agent,
  systemPrompt: agent.systemPrompt ?? '',
  widget: widgetSettingsOf(widget),
  tools: agent.datastoreIds.map((datastoreId) => ({ type: 'datastore', datastoreId })),
});

export interface AgentRoutesOptions {
  agents: AgentService;
}

export const agentRoutes: FastifyPluginAsyncTypebox<AgentRoutesOptions> = async (app, { agents }) => {
  const tags = ['agents'];

  app.post(
    '/agents',
    { schema: { tags, summary: 'Create an agent', body: AgentInput, response: { 200: Agent, ...errorResponses(413, 415) } } },
    async (request) => toAgent(await agents.create(workspaceOf(request), request.body)),
  );

  app.get(
    '/agents',
    { schema: { tags, summary: 'List the workspace’s agents, newest first', response: { 200: Type.Array(Agent), ...errorResponses() } } },
    async (request) => (await agents.list(workspaceOf(request))).map(toAgent),
  );

  app.get(
    '/agents/:id',
    {
      config: { auth: 'optional', publicResource: 'agent' },
      schema: {
        tags,
        summary: 'Get an agent; without a key, a public agent’s look only',
        description: 'Without a key (the hosted chat widget) a public agent answers its name, icon and widget settings; a private one 404.',
        params: IdParams,
        response: { 200: Type.Union([Agent, PublicAgent]), ...errorResponses(429) },
      },
    },
    async (request) => {
      const { caller } = request;
      if (isWorkspaceCaller(caller)) return toAgent(await agents.get(caller.workspaceId, request.params.id));
      const { agent, settings } = await agents.publicProfile(caller, request.params.id, request.headers.origin);
      return toPublicAgent(agent, settings);
    },
  );

  app.patch(
    '/agents/:id',
    {
      schema: {
        tags,
        summary: 'Change an agent',
        params: IdParams,
        body: AgentInput,
        response: { 200: Agent, ...errorResponses(413, 415) },
      },
    },
    async (request) => toAgent(await agents.update(workspaceOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/agents/:id',
    { schema: { tags, summary: 'Delete an agent; answers the deleted record', params: IdParams, response: { 200: Agent, ...errorResponses() } } },
    async (request) => toAgent(await agents.delete(workspaceOf(request), request.params.id)),
  );

  app.get(
    '/agents/:id/widget',
    {
      config: { auth: 'optional', publicResource: 'agent' },
      schema: {
        tags: ['widget'],
        summary: 'What the chat widget shows for a public agent: name, icon and widget settings (no key needed)',
        params: IdParams,
        response: {
          200: WidgetConfig,
          ...errorResponses(429),
        },
      },
    },
    async (request) => {
      const { agent, settings } = await agents.widget(request.caller, request.params.id, request.headers.origin);
      return { agentId: agent.id, name: agent.name, iconUrl: agent.iconUrl, widget: settings };
    },
  );
};
