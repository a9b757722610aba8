import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DatastoreSearchService } from '../../domain/datastore-search.js';
import { DATASTORE_DEFAULTS, DATASTORE_TYPE_INPUTS, type DatastoreService } from '../../domain/datastores.js';
import { workspaceOf } from '../plugins/auth.js';
import { IdParams, Nullable, SearchFilters, Visibility, StringEnum, Timestamp, errorResponses, filterLists } from '../schemas.js';

const DatastoreType = StringEnum(['vector_a']);
const DatastoreTypeInput = StringEnum(DATASTORE_TYPE_INPUTS, { description: 'vector_a; the hosted service’s qdrant and pinecone are read as vector_a' });

const Weight = Type.Number({
  minimum: 0,
  maximum: 10,
  description:
    'Weight of this engine in hybrid search, a weighted mean of normalised scores where the lexical match of passage and query ' +
    `weighs 2; defaults: vector ${DATASTORE_DEFAULTS.vectorWeight}, keyword ${DATASTORE_DEFAULTS.keywordWeight}`,
});

const VectorWindows = Type.Boolean({
  description:
    'Chunks longer than the embedding model reads (the built-in model: 128 tokens) are embedded as overlapping windows, and ' +
    'vector search scores a chunk by its best window, so no part of it goes unread. Costs ~3.5× the embedding time and ~3.6× the vector ' +
    'points (index memory) with the built-in model, nothing with a model that reads whole chunks. Changing it re-embeds the datastore in the ' +
    'background; its content stays searchable meanwhile. Default true',
});

const DatastoreInput = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.Optional(Type.String({ maxLength: 4000 })),
    type: Type.Optional(DatastoreTypeInput),
    visibility: Type.Optional(Visibility),
    vectorWeight: Type.Optional(Weight),
    keywordWeight: Type.Optional(Weight),
    vectorWindows: Type.Optional(VectorWindows),
  },
  { description: 'Datastore fields; all optional. PATCH changes only what is sent.' },
);

const Datastore = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  type: DatastoreType,
  visibility: Visibility,
  vectorWeight: Type.Number(),
  keywordWeight: Type.Number(),
  vectorWindows: VectorWindows,
  createdAt: Timestamp('When the datastore was created'),
  updatedAt: Timestamp('When the datastore last changed'),
});

const QueryBody = Type.Object({
  query: Type.String({ minLength: 1, maxLength: 10_000, pattern: '\\S', description: 'What to search for, in plain words' }),
  topK: Type.Integer({ minimum: 1, maximum: 100, default: 5, description: 'How many hits to return' }),
  mode: Type.Optional(
    StringEnum(['hybrid', 'vector', 'keyword'], {
      description: 'hybrid (default) fuses meaning-based and keyword search; vector or keyword use one engine',
    }),
  ),
  filters: Type.Optional(SearchFilters),
});

const SearchHit = Type.Object({
  text: Type.String({ description: 'The chunk’s text' }),
  score: Type.Number({
    description:
      'Higher is better. hybrid: weighted mean, in [0, 1], of normalised scores of the union of both engines’ candidates: ' +
      'cosine similarity scaled between the worst and best candidate, keyword relevance scaled to the best, and how ' +
      'closely the passage and its best sentence echo the query’s words (1 = best on every signal); ' +
      'vector: cosine similarity (-1..1); keyword: relevance scaled so the best hit is 1',
  }),
  source: Type.String({ description: 'The document’s URL: a web page’s address, else Parley’s URL of the datasource (PARLEY_PUBLIC_URL/datasources/{id})' }),
  datasource_id: Type.String(),
  datasource_name: Type.String(),
  custom_id: Nullable(Type.String()),
  chunk_id: Type.String(),
  page_number: Nullable(Type.Integer({ description: 'Page, slide or sheet number where the chunk starts' })),
});

export type DatastoreBody = Static<typeof Datastore>;
export type SearchHitBody = Static<typeof SearchHit>;

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
    { schema: { tags, summary: 'Change a datastore', params: IdParams, body: DatastoreInput, response: { 200: Datastore, ...errorResponses(413, 415) } } },
    async (request) => datastores.update(workspaceOf(request), request.params.id, request.body),
  );

  const searchHits = async (workspaceId: string | null, datastoreId: string, body: Static<typeof QueryBody>): Promise<SearchHitBody[]> => {
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
  const searchRoute = { config: { auth: 'optional', publicResource: 'datastore' }, params: IdParams, body: QueryBody } as const;
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
