import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DatastoreService } from '../../domain/datastores.js';
import { workspaceOf } from '../plugins/auth.js';
import { IdParams, Visibility, StringEnum, Timestamp, errorResponses } from '../schemas.js';

const DatastoreType = StringEnum(['vector_a']);

const DatastoreInput = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.Optional(Type.String({ maxLength: 4000 })),
    type: Type.Optional(DatastoreType),
    visibility: Type.Optional(Visibility),
  },
  { description: 'Datastore fields; all optional. PATCH changes only what is sent.' },
);

const Datastore = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  type: DatastoreType,
  visibility: Visibility,
  createdAt: Timestamp('When the datastore was created'),
  updatedAt: Timestamp('When the datastore last changed'),
});

export const datastoreRoutes: FastifyPluginAsyncTypebox<{ datastores: DatastoreService }> = async (
  app,
  { datastores },
) => {
  const tags = ['datastores'];

  app.post(
    '/datastores',
    { schema: { tags, summary: 'Create a datastore', body: DatastoreInput, response: { 200: Datastore, ...errorResponses(413, 415) } } },
    async (request) => datastores.create(workspaceOf(request), request.body),
  );

  app.get(
    '/datastores',
    { schema: { tags, summary: 'List the workspace’s datastores, newest first', response: { 200: Type.Array(Datastore), ...errorResponses() } } },
    async (request) => datastores.list(workspaceOf(request)),
  );

  app.get(
    '/datastores/:id',
    { schema: { tags, summary: 'Get a datastore', params: IdParams, response: { 200: Datastore, ...errorResponses() } } },
    async (request) => datastores.get(workspaceOf(request), request.params.id),
  );

  app.patch(
    '/datastores/:id',
    { schema: { tags, summary: 'Change a datastore', params: IdParams, body: DatastoreInput, response: { 200: Datastore, ...errorResponses(413, 415) } } },
    async (request) => datastores.update(workspaceOf(request), request.params.id, request.body),
  );

  app.delete(
    '/datastores/:id',
    {
      schema: {
        tags,
        summary: 'Delete a datastore with its datasources; agents linked to it lose the link',
        params: IdParams,
        response: { 200: Datastore, ...errorResponses() },
      },
    },
    async (request) => datastores.delete(workspaceOf(request), request.params.id),
  );
};
