import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ModelProviderService } from '../../domain/model-providers.js';
import type { WorkspaceModels } from '../../domain/workspace-models.js';
import { workspaceOf } from '../plugins/auth.js';
import { IdParams, errorResponses } from '../schemas.js';
import { Model, ModelName, ModelRoute, NewProvider, Provider, ProviderChanges, TestResult } from '../../contract/models.js';

/** Fields the use case may name that a request can leave out. */
const fieldPaths = { baseUrl: 'body.baseUrl', apiKey: 'body.apiKey', model: 'body.model' };

const RouteParams = Type.Object({ modelName: ModelName('The model name') });

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
    {
      config: { adminOnly: true },
      schema: { tags, summary: 'The workspace’s model providers', response: { 200: Type.Array(Provider), ...errorResponses() } },
    },
    async (request) => providers.list(workspaceOf(request)),
  );

  app.post(
    '/model-providers',
    {
      config: { adminOnly: true, fieldPaths },
      schema: {
        tags,
        summary: 'Connect a model provider; its API key is sealed and never shown again',
        body: NewProvider,
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
        body: ProviderChanges,
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
        body: ModelRoute,
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
