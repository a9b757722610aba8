import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, Timestamp, Visibility } from './json-schema.js';
import { ModelName } from './models.js';
import { WidgetSettings, WidgetSettingsPatch } from './widget-settings.js';

/** Agents as the API answers them, to members and keys and (public ones) to callers without a key. */

export const DatastoreTool = Type.Object({
  type: StringEnum(['datastore']),
  datastoreId: Type.String({ minLength: 1, description: 'A datastore of the same workspace' }),
});

export const KEEP_ANSWERING =
  'false (the default): once a person is asked for (status HUMAN_REQUESTED, by the visitor or a member) the agent ' +
  'stops answering in that conversation and the visitor’s messages wait for the team. true: it keeps answering ' +
  'until a member takes the conversation over (isAiEnabled false).';

export const Agent = Type.Object({
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

/** What a caller without a key reads of a public agent: its look, never its prompts, origins or datastores. */
export const PublicAgent = Type.Object(
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

/** The writable fields, for POST and PATCH. */
export const AgentInput = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.Optional(Type.String({ maxLength: 4000 })),
    modelName: Type.Optional(ModelName('The model that answers')),
    temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    visibility: Type.Optional(Visibility),
    systemPrompt: Type.Optional(Nullable(Type.String({ maxLength: 100_000 }))),
    userPrompt: Type.Optional(Type.String({ maxLength: 100_000, description: 'Template; every {query} and {context} is replaced' })),
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
    tools: Type.Optional(Type.Array(DatastoreTool, { maxItems: 100, description: 'Datastores the agent retrieves from' })),
  },
  { description: 'Agent fields; all optional. PATCH changes only what is sent; without tools the links stay.' },
);

export type AgentBody = Static<typeof Agent>;
export type AgentInputBody = Static<typeof AgentInput>;
