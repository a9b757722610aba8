import { Type, type SchemaOptions, type Static, type TSchema, type TString, type TUnsafe } from '@sinclair/typebox';

/**
 * A string limited to `values`, as a plain JSON-schema `enum` (clearer errors and OpenAPI than a union
 * of literals).
 */
export const StringEnum = <const T extends string>(values: readonly T[], options: { description?: string } = {}) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...options });

export const Nullable = <T extends TSchema>(schema: T, options?: SchemaOptions) => Type.Union([schema, Type.Null()], options);

export const Timestamp = (description: string): TString => Type.String({ format: 'date-time', description });

/**
 * An id a client makes up (older clients name their own conversations and visitors): letters, digits,
 * punctuation and symbols of any script, no spaces, no control, bidi or zero-width characters (all of
 * Unicode's categories C and Z), at most 128 of them. Ajv reads patterns with the `u` flag.
 */
export const ClientId = (description: string) =>
  Type.String({ minLength: 1, maxLength: 128, pattern: '^[\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}]+$', description });

/**
 * A pointer to one of {@link SHARED_SCHEMAS}, typed as the schema: server.ts registers those once, for
 * validation and serialization, so the OpenAPI document lists each once under components.schemas.
 */
function ref<T extends TSchema>(schema: T, options: SchemaOptions = {}): TUnsafe<Static<T>> {
  if (schema.$id === undefined) throw new TypeError('only a schema with an $id can be referred to');
  return Type.Unsafe<Static<T>>(Type.Ref(schema.$id, options));
}

const IdSchema = Type.String({ $id: 'Id', minLength: 1, maxLength: 200, description: 'The id of a resource' });

/** An id sent in a path or a body. */
export const Id = ref(IdSchema);

export const IdParams = Type.Object({ id: Id });

/**
 * A `modelName`: checked against the configured models by the domain, so a name nobody configured answers
 * UNKNOWN_MODEL rather than a schema error.
 */
export const ModelName = (description: string) =>
  Type.String({ minLength: 1, maxLength: 200, description: `${description}; one of the names GET /models lists` });

const SearchFiltersSchema = Type.Object(
  {
    datasource_ids: Type.Optional(Type.Array(Type.String(), { maxItems: 1000, description: 'Only these datasources (any of them)' })),
    custom_ids: Type.Optional(Type.Array(Type.String(), { maxItems: 1000, description: 'Only datasources with one of these custom ids' })),
    // The hosted service's clients also send one of each, singular.
    datasource_id: Type.Optional(Type.String({ description: 'One more datasource, as in datasource_ids' })),
    custom_id: Type.Optional(Type.String({ description: 'One more custom id, as in custom_ids' })),
  },
  { $id: 'SearchFilters', description: 'Which chunks a search may return; with both lists, a chunk must pass both' },
);

/** The `filters` of a datastore search and of a question to an agent. */
export const SearchFilters = ref(SearchFiltersSchema);

/** The datasources and custom ids `filters` keep, the singular keys joining the lists; absent lists stay absent. */
export function filterLists(filters: Static<typeof SearchFilters> | undefined): { datasourceIds?: string[]; customIds?: string[] } {
  const join = (list: string[] | undefined, one: string | undefined) => (one === undefined ? list : [...(list ?? []), one]);
  return { datasourceIds: join(filters?.datasource_ids, filters?.datasource_id), customIds: join(filters?.custom_ids, filters?.custom_id) };
}

const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'Stable error code, e.g. INVALID_REQUEST, UNAUTHORIZED, NOT_FOUND' }),
    message: Type.String({ description: 'What went wrong, for people' }),
    details: Type.Optional(
      Type.Array(Type.Object({ field: Type.String(), message: Type.String() }), {
        description: 'One entry per bad field of the request',
      }),
    ),
    requestId: Type.String({ description: 'Quote it when reporting a problem; also in the X-Request-Id header' }),
  },
  { $id: 'ErrorBody', description: 'Error' },
);

export type ErrorBody = Static<typeof ErrorBody>;

const ERROR_DESCRIPTIONS = {
  400: 'Invalid request (INVALID_REQUEST); `details` lists each bad field',
  401: 'Missing or unknown API key (UNAUTHORIZED)',
  402: 'Usage limit reached (USAGE_LIMIT)',
  403: 'The resource belongs to another workspace (FORBIDDEN)',
  404: 'No such resource (NOT_FOUND)',
  409: 'Conflicts with the current state (CONFLICT)',
  413: 'Body too large (PAYLOAD_TOO_LARGE)',
  415: 'Unsupported content type (UNSUPPORTED_MEDIA_TYPE)',
  429: 'Too many requests (RATE_LIMIT), or the model provider is rate limiting us (MODEL_RATE_LIMITED); see Retry-After',
  500: 'Internal error (INTERNAL)',
  502: 'The model provider refused the request (MODEL_ERROR)',
  503: 'A dependency is unreachable (UNAVAILABLE), the model provider included (MODEL_UNAVAILABLE)',
} as const;

export type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

export const errorResponse = (status: ErrorStatus) => ref(ErrorBody, { description: ERROR_DESCRIPTIONS[status] });

/** The error responses an authenticated route can give; `extra` adds route-specific ones. */
export function errorResponses(...extra: ErrorStatus[]) {
  const statuses: ErrorStatus[] = [400, 401, 403, 404, 500, ...extra];
  return Object.fromEntries(statuses.map((status) => [status, errorResponse(status)]));
}

export const Visibility = StringEnum(['public', 'private'], {
  description: 'public: usable without an API key (e.g. from the chat widget); private: needs a key of the workspace',
});

/** The schemas routes refer to by $id, for server.ts to register. */
export const SHARED_SCHEMAS: readonly TSchema[] = [IdSchema, SearchFiltersSchema, ErrorBody];
