import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AgentService } from '../../domain/agents.js';
import type { AgentRecord } from '../../store/store.js';
import { workspaceOf } from '../plugins/auth.js';
import { widgetSettingsOf, type WidgetSettings as WidgetLook } from '../../domain/widget-settings.js';
import { isWorkspaceCaller } from '../../domain/callers.js';
import { WidgetSettings, WidgetSettingsPatch } from './widget-schemas.js';
import { IdParams, ModelName, Visibility, Nullable, StringEnum, Timestamp, errorResponses } from '../schemas.js';


const DatastoreTool = Type.Object({
  type: StringEnum(['datastore']),
  datastoreId: Type.String({ minLength: 1, description: 'A datastore of the same workspace' }),
});

const KEEP_ANSWERING =
  'false (the default): once a person is asked for (status HUMAN_REQUESTED, by the visitor or a member) the agent ' +
  'stops answering in that conversation and the visitor’s messages wait for the team. true: it keeps answering ' +
  'until a member takes the conversation over (isAiEnabled false).';

/** The writable fields. */
const AgentInput = Type.Object(
    {
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      description: Type.Optional(Type.String({ maxLength: 4000 })),
      modelName: Type.Optional(ModelName('The model that answers')),
      temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
      visibility: Type.Optional(Visibility),
      systemPrompt: Type.Optional(Nullable(Type.String({ maxLength: 100_000 }))),
      userPrompt: Type.Optional(
        Type.String({ maxLength: 100_000, description: 'Template; every {query} and {context} is replaced' }),
      ),
      promptTemplate: Type.Optional(Type.String({ maxLength: 100_000, description: 'Deprecated: use userPrompt' })),
      promptType: Type.Optional(Type.String({ maxLength: 100, description: 'Deprecated and ignored' })),
      iconUrl: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
      handle: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
      allowedOrigins: Type.Optional(
        Type.Array(Type.String({ minLength: 1, maxLength: 300 }), {
          maxItems: 100,
          description: 'Web origins (https://www.example.com) whose pages may call this public agent; empty allows any',
        }),
      ),
      widget: Type.Optional(WidgetSettingsPatch),
      keepAnsweringUntilTakenOver: Type.Optional(Type.Boolean({ description: KEEP_ANSWERING })),
      tools: Type.Optional(
        Type.Array(DatastoreTool, { maxItems: 100, description: 'Datastores the agent retrieves from' }),
      ),
    },
    { description: 'Agent fields; all optional. PATCH changes only what is sent; without tools the links stay.' },
  );

const Agent = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  modelName: Type.String(),
  temperature: Type.Number(),
  visibility: Visibility,
  // A string in the older public OpenAPI document, which clients generate code from: never null.
  systemPrompt: Type.String({ description: 'Empty when the agent has none' }),
  userPrompt: Type.String(),
  iconUrl: Nullable(Type.String()),
  handle: Nullable(Type.String()),
  allowedOrigins: Type.Array(Type.String(), { description: 'Origins allowed to call the public endpoints; empty: any' }),
  widget: WidgetSettings,
  keepAnsweringUntilTakenOver: Type.Boolean({ description: KEEP_ANSWERING }),
  tools: Type.Array(DatastoreTool),
  createdAt: Timestamp('When the agent was created'),
  updatedAt: Timestamp('When the agent last changed'),
});

export type AgentBody = Static<typeof Agent>;

/** What a caller without a key reads of a public agent: its look, never its prompts, origins or datastores. */
const PublicAgent = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    iconUrl: Nullable(Type.String()),
    visibility: StringEnum(['public']),
    widget: WidgetSettings,
    interfaceConfig: Type.Object(
      {
        displayName: Type.String(),
        primaryColor: Type.String(),
        position: StringEnum(['left', 'right']),
        theme: Type.Optional(StringEnum(['light', 'dark'])),
        initialMessages: Type.Array(Type.String()),
        messageTemplates: Type.Array(Type.String()),
      },
      { description: 'The widget settings under the names the hosted service’s widget reads' },
    ),
    includeSources: Type.Boolean({ description: 'Answers carry their sources (the hosted widget shows them when true)' }),
  },
  { description: 'A public agent as a caller without a key sees it' },
);

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
          200: Type.Object({ agentId: Type.String(), name: Type.String(), iconUrl: Nullable(Type.String()), widget: WidgetSettings }),
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
