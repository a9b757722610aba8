import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ModelProviderService } from '../../domain/model-providers.js';
import type { WorkspaceModels } from '../../domain/workspace-models.js';
import { workspaceOf } from '../plugins/auth.js';
import { Id, IdParams, ModelName, Nullable, StringEnum, Timestamp, errorResponses } from '../schemas.js';

const PROVIDER_KINDS = ['openai', 'anthropic', 'openai-compatible'] as const;
const SERVING_KINDS = ['openai', 'openai-compatible', 'anthropic', 'local'] as const;

const Model = Type.Object({
  name: Type.String(),
  provider: StringEnum(SERVING_KINDS, {
    description: 'local: the built-in offline model, which answers by quoting the sentences of the retrieved passages',
  }),
  model: Type.String({ description: 'The provider’s model id (`local-extractive` for the built-in model)' }),
  providerId: Nullable(Type.String({ description: 'The workspace’s provider serving the name; null: the operator’s configuration' })),
  providerName: Nullable(Type.String()),
  operatorDefault: Type.Object(
    { provider: StringEnum(SERVING_KINDS), model: Type.String() },
    { description: 'What serves the name when the workspace chooses nothing: the environment’s configuration' },
  ),
});

const Provider = Type.Object({
  id: Type.String(),
  name: Type.String(),
  kind: StringEnum(PROVIDER_KINDS, { description: 'openai-compatible: vLLM, Ollama, llama.cpp’s server or any other speaking OpenAI’s API' }),
  baseUrl: Nullable(Type.String({ description: 'The API root; null: the vendor’s own' })),
  apiKeyHint: Nullable(Type.String({ description: 'The key’s first and last characters (`sk-…x7Qa`); the key itself is never returned' })),
  keyReadable: Type.Boolean({ description: 'False when the key was sealed under another secret key: enter it again' }),
  createdAt: Timestamp('When the provider was added'),
  updatedAt: Timestamp('Last change'),
});

const BaseUrl = Type.String({
  format: 'uri',
  pattern: '^https?://',
  maxLength: 2000,
  description: 'The API root (`https://…/v1`); PARLEY_OUTBOUND_ALLOW must allow its address',
});
const ApiKey = Type.String({ minLength: 1, maxLength: 4000, description: 'Sealed (AES-256-GCM) before it is stored; never returned' });
const ProviderName = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });

const TestResult = Type.Object({
  ok: Type.Boolean(),
  code: StringEnum(
    ['ok', 'blocked', 'key_unreadable', 'unauthorized', 'not_found', 'rate_limited', 'unavailable', 'unreachable', 'timeout', 'unusable', 'refused'],
    { description: 'Why the test failed, in Parley’s words (never the provider’s text)' },
  ),
  message: Type.String(),
  status: Nullable(Type.Integer({ description: 'The provider’s HTTP status, when it answered one' })),
  models: Type.Array(Type.String(), { description: 'Model ids the provider listed' }),
  durationMs: Type.Integer(),
});

/** Fields the use case may name that a request can leave out. */
const fieldPaths = { baseUrl: 'body.baseUrl', apiKey: 'body.apiKey', model: 'body.model' };

const RouteParams = Type.Object({ modelName: ModelName('The model name') });

export type ModelBody = Static<typeof Model>;
export type ModelProviderBody = Static<typeof Provider>;
export type ProviderTestBody = Static<typeof TestResult>;

export interface ModelRoutesOptions {
  models: WorkspaceModels;
  providers: ModelProviderService;
}

/**
 * What `modelName` may be and what serves each name (any member, for the agent form), and the workspace's
 * own providers and choices (owners and admins, the Models page).
 */
export const modelRoutes: FastifyPluginAsyncTypebox<ModelRoutesOptions> = async (app, { models, providers }) => {
  const tags = ['models'];

  app.get(
    '/models',
    {
      schema: {
        tags: ['agents', ...tags],
        summary: 'The model names an agent may use, with what serves each in this workspace',
        response: { 200: Type.Array(Model), ...errorResponses() },
      },
    },
    async (request) => models.catalogue(workspaceOf(request)),
  );

  app.get(
    '/model-providers',
    { config: { adminOnly: true }, schema: { tags, summary: 'The workspace’s model providers', response: { 200: Type.Array(Provider), ...errorResponses() } } },
    async (request) => providers.list(workspaceOf(request)),
  );

  app.post(
    '/model-providers',
    {
      config: { adminOnly: true, fieldPaths },
      schema: {
        tags,
        summary: 'Connect a model provider; its API key is sealed and never shown again',
        body: Type.Object({
          name: ProviderName,
          kind: StringEnum(PROVIDER_KINDS),
          baseUrl: Type.Optional(Nullable(BaseUrl)),
          apiKey: Type.Optional(Nullable(ApiKey)),
        }),
        response: { 200: Provider, ...errorResponses(413, 415) },
      },
    },
    async (request) => providers.create(workspaceOf(request), request.body),
  );

  app.patch(
    '/model-providers/:id',
    {
      config: { adminOnly: true, fieldPaths },
      schema: {
        tags,
        summary: 'Rename a provider, change its base URL, or replace (null: remove) its API key',
        params: IdParams,
        body: Type.Object({
          name: Type.Optional(ProviderName),
          baseUrl: Type.Optional(Nullable(BaseUrl)),
          apiKey: Type.Optional(Nullable(ApiKey)),
        }),
        response: { 200: Provider, ...errorResponses(413, 415) },
      },
    },
    async (request) => providers.update(workspaceOf(request), request.params.id, request.body),
  );

  app.delete(
    '/model-providers/:id',
    {
      config: { adminOnly: true },
      schema: {
        tags,
        summary: 'Remove a provider; the model names it served go back to the operator’s configuration',
        params: IdParams,
        response: { 200: Provider, ...errorResponses() },
      },
    },
    async (request) => providers.delete(workspaceOf(request), request.params.id),
  );

  app.post(
    '/model-providers/:id/test',
    {
      config: { adminOnly: true },
      schema: {
        tags,
        summary: 'One small call to the provider (its model list) with its key; ok or why not',
        params: IdParams,
        response: { 200: TestResult, ...errorResponses() },
      },
    },
    async (request) => providers.test(workspaceOf(request), request.params.id),
  );

  app.put(
    '/model-routes/:modelName',
    {
      config: { adminOnly: true, fieldPaths },
      schema: {
        tags,
        summary: 'Serve a model name in this workspace by a model of one of its providers',
        params: RouteParams,
        body: Type.Object({ providerId: Id, model: Type.String({ minLength: 1, maxLength: 200, description: 'The provider’s model id' }) }),
        response: { 200: Model, ...errorResponses(413, 415) },
      },
    },
    async (request) => {
      const workspaceId = workspaceOf(request);
      await providers.setRoute(workspaceId, request.params.modelName, { providerId: request.body.providerId, providerModel: request.body.model });
      return modelNamed(await models.catalogue(workspaceId), request.params.modelName);
    },
  );

  app.delete(
    '/model-routes/:modelName',
    {
      config: { adminOnly: true },
      schema: {
        tags,
        summary: 'Let the operator’s configuration serve a model name again',
        params: RouteParams,
        response: { 200: Model, ...errorResponses() },
      },
    },
    async (request) => {
      const workspaceId = workspaceOf(request);
      await providers.clearRoute(workspaceId, request.params.modelName);
      return modelNamed(await models.catalogue(workspaceId), request.params.modelName);
    },
  );
};

const modelNamed = <T extends { name: string }>(catalogue: T[], name: string): T => catalogue.find((model) => model.name === name)!;
