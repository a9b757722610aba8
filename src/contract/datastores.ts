import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, Timestamp, Visibility } from './json-schema.js';
import { SearchFilters } from './shared-schemas.js';

/** Datastores and their search hits as the API answers them. */

export const DatastoreType = StringEnum(['vector_a']);

/** The hosted service's datastore types clients send: `qdrant` is the only value of its public OpenAPI document. */
export const DATASTORE_TYPE_ALIASES = {
  qdrant: 'vector_a',
  pinecone: 'vector_a',
} as const;

/** A datastore type as clients may send it: the spec's, or the hosted service's name for it. */
export const DATASTORE_TYPE_INPUTS = ['vector_a', ...(Object.keys(DATASTORE_TYPE_ALIASES) as (keyof typeof DATASTORE_TYPE_ALIASES)[])] as const;

export type DatastoreTypeInput = (typeof DATASTORE_TYPE_INPUTS)[number];

export const VectorWindows = Type.Boolean({
  description:
    'Chunks longer than the embedding model reads (the built-in model: 128 tokens) are embedded as overlapping windows, and ' +
    'vector search scores a chunk by its best window, so no part of it goes unread. Costs ~3.5× the embedding time and ~3.6× the vector ' +
    'points (index memory) with the built-in model, nothing with a model that reads whole chunks. Changing it re-embeds the datastore in the ' +
    'background; its content stays searchable meanwhile. Default true',
});

export const Datastore = Type.Object({
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

/** How a datastore search finds its hits (`POST /datastores/{id}/query`'s `mode`). */
export const SEARCH_MODES = ['hybrid', 'vector', 'keyword'] as const;

export type SearchMode = (typeof SEARCH_MODES)[number];

export const SearchHit = Type.Object({
  text: Type.String({ description: 'The chunk’s text' }),
  score: Type.Number({
    description:
      'Higher is better. hybrid: weighted mean, in [0, 1], of normalised scores of the union of both engines’ candidates: ' +
      'cosine similarity scaled between the worst and best candidate, keyword relevance scaled to the best, and how ' +
      'closely the passage and its best sentence echo the query’s words (1 = best on every signal); ' +
      'vector: cosine similarity (-1..1); keyword: relevance scaled so the best hit is 1',
  }),
  source: Type.String({
    description: 'The document’s URL: a web page’s address, else Parley’s URL of the datasource (PARLEY_PUBLIC_URL/datasources/{id})',
  }),
  datasource_id: Type.String(),
  datasource_name: Type.String(),
  custom_id: Nullable(Type.String()),
  chunk_id: Type.String(),
  page_number: Nullable(Type.Integer({ description: 'Page, slide or sheet number where the chunk starts' })),
});

/**
 * The writable fields, for POST and PATCH; `defaults` are the weights a datastore starts with (the retriever's),
 * which their description names.
 */
export const datastoreInput = (defaults: Readonly<{ vectorWeight: number; keywordWeight: number }>) => {
  const Weight = Type.Number({
    minimum: 0,
    maximum: 10,
    description:
      'Weight of this engine in hybrid search, a weighted mean of normalised scores where the lexical match of passage and query ' +
      `weighs 2; defaults: vector ${defaults.vectorWeight}, keyword ${defaults.keywordWeight}`,
  });
  return Type.Object(
    {
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      description: Type.Optional(Type.String({ maxLength: 4000 })),
      type: Type.Optional(
        StringEnum(DATASTORE_TYPE_INPUTS, { description: 'vector_a; the hosted service’s qdrant and pinecone are read as vector_a' }),
      ),
      visibility: Type.Optional(Visibility),
      vectorWeight: Type.Optional(Weight),
      keywordWeight: Type.Optional(Weight),
      vectorWindows: Type.Optional(VectorWindows),
    },
    { description: 'Datastore fields; all optional. PATCH changes only what is sent.' },
  );
};

export type DatastoreBody = Static<typeof Datastore>;
export type SearchHitBody = Static<typeof SearchHit>;
export type DatastoreInputBody = Static<ReturnType<typeof datastoreInput>>;

/** `POST /datastores/{id}/query`: a search of the datastore's chunks. */
export const SearchQuery = Type.Object({
  query: Type.String({ minLength: 1, maxLength: 10_000, pattern: '\\S', description: 'What to search for, in plain words' }),
  topK: Type.Integer({ minimum: 1, maximum: 100, default: 5, description: 'How many hits to return' }),
  mode: Type.Optional(
    StringEnum(SEARCH_MODES, {
      description: 'hybrid (default) fuses meaning-based and keyword search; vector or keyword use one engine',
    }),
  ),
  filters: Type.Optional(SearchFilters),
});

/** A search as the API reads it (`topK` filled in with its default when a client leaves it out). */
export type SearchQueryBody = Static<typeof SearchQuery>;
