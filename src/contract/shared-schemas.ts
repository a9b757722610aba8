import { Type, type SchemaOptions, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';

/**
 * An id a client makes up (older clients name their own conversations and visitors): letters, digits,
 * punctuation and symbols of any script, no spaces, no control, bidi or zero-width characters (all of
 * Unicode's categories C and Z), at most 128 of them. Ajv reads patterns with the `u` flag.
 */
export const ClientId = (description: string) =>
  Type.String({ minLength: 1, maxLength: 128, pattern: '^[\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}]+$', description });

/**
 * A pointer to a schema with an `$id`, typed as the schema: the server registers those once (SHARED_SCHEMAS), for
 * validation and serialization, so the OpenAPI document lists each once under components.schemas.
 */
export function ref<T extends TSchema>(schema: T, options: SchemaOptions = {}): TUnsafe<Static<T>> {
  if (schema.$id === undefined) throw new TypeError('only a schema with an $id can be referred to');
  return Type.Unsafe<Static<T>>(Type.Ref(schema.$id, options));
}

export const IdSchema = Type.String({ $id: 'Id', minLength: 1, maxLength: 200, description: 'The id of a resource' });

/** An id sent in a path or a body. */
export const Id = ref(IdSchema);

export const IdParams = Type.Object({ id: Id });

export const SearchFiltersSchema = Type.Object(
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
