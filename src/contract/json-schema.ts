import { Type, type ObjectOptions, type SchemaOptions, type TSchema, type TString } from '@sinclair/typebox';

/**
 * A string limited to `values`, as a plain JSON-schema `enum` (clearer errors and OpenAPI than a union
 * of literals).
 */
export const StringEnum = <const T extends string>(values: readonly T[], options: { description?: string } = {}) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...options });

export const Nullable = <T extends TSchema>(schema: T, options?: SchemaOptions) => Type.Union([schema, Type.Null()], options);

export const Timestamp = (description: string): TString => Type.String({ format: 'date-time', description });

export const Visibility = StringEnum(['public', 'private'], {
  description: 'public: usable without an API key (e.g. from the chat widget); private: needs a key of the workspace',
});

/** An object with one property per key, each of `schema`; its static type names every key (Object.fromEntries' would not). */
export const KeyedObject = <const K extends string, T extends TSchema>(keys: readonly K[], schema: T, options?: ObjectOptions) =>
  Type.Object(Object.fromEntries(keys.map((key) => [key, schema])) as Record<K, T>, options);
