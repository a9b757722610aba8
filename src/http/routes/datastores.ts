import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DatastoreSearchService } from '../../domain/datastore-search.js';
import { DATASTORE_DEFAULTS, type DatastoreService } from '../../domain/datastores.js';
import { workspaceOf } from '../plugins/auth.js';
import { IdParams, errorResponses, filterLists } from '../schemas.js';
import { Datastore, SearchHit, SearchQuery, datastoreInput, type SearchHitBody } from '../../contract/datastores.js';

const DatastoreInput = datastoreInput(DATASTORE_DEFAULTS);

export const datastoreRoutes: FastifyPluginAsyncTypebox<{ datastores: DatastoreService; search: DatastoreSearchService }> = async (
  app,
  { datastores, search },
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
    {
      schema: {
        tags,
        summary: 'Change a datastore',
        params: IdParams,
        body: DatastoreInput,
        response: { 200: Datastore, ...errorResponses(413, 415) },
      },
    },
    async (request) => datastores.update(workspaceOf(request), request.params.id, request.body),
  );

  const searchHits = async (workspaceId: string | null, datastoreId: string, body: Static<typeof SearchQuery>): Promise<SearchHitBody[]> => {
    const { query, topK, mode = 'hybrid', filters } = body;
    const hits = await search.query(workspaceId, datastoreId, { query, topK, mode, ...filterLists(filters) });
    return hits.map((hit) => ({
      text: hit.text,
      score: hit.score,
      source: hit.source,
      datasource_id: hit.datasourceId,
      datasource_name: hit.datasourceName,
      custom_id: hit.customId,
      chunk_id: hit.chunkId,
      page_number: hit.pageNumber,
    }));
  };
  const searchRoute = { config: { auth: 'optional', publicResource: 'datastore' }, params: IdParams, body: SearchQuery } as const;
  const searchErrors = errorResponses(413, 415, 429, 502, 503);

  app.post(
    '/datastores/:id/query',
    {
      config: searchRoute.config,
      schema: {
        tags,
        summary: 'Search the datastore: the chunks that best match the query, best first',
        description: 'Public datastores can be searched without a key; private ones need a key of their workspace.',
        params: searchRoute.params,
        body: searchRoute.body,
        response: { 200: Type.Array(SearchHit), ...searchErrors },
      },
    },
    async (request) => searchHits(request.workspaceId, request.params.id, request.body),
  );

  // LangChain's ChaindeskRetriever (Python; JS before the rename, as DataberryRetriever) POSTs to a URL its user
  // sets and reads `{results}`, the hosted service's older answer; the path above answers the spec's array.
  app.post(
    '/datastores/:id/query/langchain',
    {
      config: searchRoute.config,
      schema: {
        tags,
        summary: 'The same search answered as {results: [...]}: the URL to give LangChain’s ChaindeskRetriever',
        params: searchRoute.params,
        body: searchRoute.body,
        response: { 200: Type.Object({ results: Type.Array(SearchHit) }), ...searchErrors },
      },
    },
    async (request) => ({ results: await searchHits(request.workspaceId, request.params.id, request.body) }),
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
