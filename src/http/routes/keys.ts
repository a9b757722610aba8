import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { KeyService } from '../../domain/keys.js';
import { workspaceCallerOf, workspaceOf } from '../plugins/auth.js';
import { IdParams, errorResponses } from '../schemas.js';
import { ApiKey, IssuedKey, NewKey } from '../../contract/keys.js';

/**
 * Workspace keys, which every member may manage. A key acts on the public API's resources like any other;
 * on people, webhooks and settings it has the rights of the person who made it (the operator's keys: an
 * owner's) and loses them with them.
 */
export const keyRoutes: FastifyPluginAsyncTypebox<{ keys: KeyService }> = async (app, { keys }) => {
  const tags = ['keys'];

  app.get(
    '/keys',
    { schema: { tags, summary: 'List the workspace’s API keys (prefixes only)', response: { 200: Type.Array(ApiKey), ...errorResponses() } } },
    async (request) => keys.list(workspaceOf(request)),
  );

  app.post(
    '/keys',
    {
      schema: {
        tags,
        summary: 'Create an API key; the answer is the only time the key is shown',
        body: NewKey,
        response: { 200: IssuedKey, ...errorResponses(413, 415) },
      },
    },
    async (request) => {
      const maker = workspaceCallerOf(request);
      const { record, secret } = await keys.issue(maker.workspaceId, request.body.name, maker);
      return { ...record, key: secret };
    },
  );

  app.delete(
    '/keys/:id',
    {
      schema: {
        tags,
        summary: 'Delete an API key; the workspace’s last key cannot be deleted (409)',
        params: IdParams,
        response: { 200: ApiKey, ...errorResponses(409) },
      },
    },
    async (request) => keys.revoke(workspaceOf(request), request.params.id),
  );
};
