import fc from 'fast-check';

/**
 * The part of JSON Schema the route schemas in the OpenAPI document use (`GET /openapi.json`): what the
 * generators below read. Shared schemas are `$ref`s to `#/components/schemas/…`.
 */
export interface JsonSchema {
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';
  $ref?: string;
  enum?: readonly unknown[];
  anyOf?: readonly JsonSchema[];
  oneOf?: readonly JsonSchema[];
  properties?: Readonly<Record<string, JsonSchema>>;
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
}

/** Turns a `$ref` into the schema it points at. */
export type SchemaResolver = (schema: JsonSchema) => JsonSchema;

export function resolverOf(components: Readonly<Record<string, unknown>>): SchemaResolver {
  return (schema) => {
    if (schema.$ref === undefined) return schema;
    const name = schema.$ref.replace('#/components/schemas/', '');
    const target = components[name];
    if (target === undefined) throw new Error(`no component ${schema.$ref}`);
    return target as JsonSchema;
  };
}

/** Keys that pollute `Object.prototype` in code that merges objects carelessly. */
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** Text that some parser might read as a number, a boolean or nothing. */
const NUMBER_LIKE_TEXT = [
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '1e309',
  '0x10',
  ' 1 ',
  '',
  '1_000',
  '١٢٣',
  'null',
  'true',
  'undefined',
  '[object Object]',
];

/** Strings that have broken text handling somewhere: huge, control characters, lone surrogates, RTL marks, NUL. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    ...NUMBER_LIKE_TEXT,
    ...PROTOTYPE_KEYS,
    '\u0000',
    '\ud800',
    '\udfff x',
    '\u202e\u2066',
    '%00',
    '../../etc/passwd',
    "' OR 1=1 --",
    '{query}{context}',
  ),
  fc.integer({ min: 10_000, max: 300_000 }).chain((length) => fc.constantFrom('x', 'é', '😀', '\u0000').map((unit) => unit.repeat(length))),
);

/** Numbers at and just past every bound a schema can have, and the ones JSON barely holds. */
function boundaryNumbers(schema: JsonSchema): fc.Arbitrary<number> {
  const edges = [schema.minimum, schema.maximum].filter((edge): edge is number => edge !== undefined);
  return fc.constantFrom(
    ...edges.flatMap((edge) => [edge, edge - 1, edge + 1, edge - Number.EPSILON * 4, edge + 1e-9]),
    0,
    -0,
    -1,
    0.5,
    2 ** 31,
    2 ** 53 + 1,
    -(2 ** 53 + 1),
    Number.MAX_VALUE,
    -Number.MAX_VALUE,
    Number.MIN_VALUE,
  );
}

/** A value of any JSON type, nested a little: what a confused client sends in place of anything. */
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  nastyString,
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
);

/** An object that owns `key` (as JSON.parse makes it), even `__proto__`. */
function withOwnKey(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  return Object.defineProperty({ ...target }, key, { value, enumerable: true, configurable: true, writable: true });
}

const isoDate = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true });

/**
 * URLs on this machine's closed discard port: what the outbound policy of the tests (`loopback`) lets a webhook
 * be saved with, so the fuzz reaches past that check too, and a delivery finds nothing listening. Public
 * names (fc.webUrl) are refused by that policy before any lookup.
 */
const loopbackUrl = fc.webPath().map((path) => `http://127.0.0.1:9${path}`);

function validString(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  // Long enough to reach the limits now and then, short enough that runs stay quick.
  const maxLength = Math.min(schema.maxLength ?? 60, 60);
  const fits = (text: string) => [...text].length >= minLength && (schema.maxLength === undefined || [...text].length <= schema.maxLength);
  if (schema.format === 'date-time') return isoDate.map((date) => date.toISOString());
  if (schema.format === 'date') return isoDate.map((date) => date.toISOString().slice(0, 10));
  if (schema.format === 'email') return fc.emailAddress().filter(fits);
  if (schema.format === 'uri') return fc.oneof(fc.webUrl(), loopbackUrl).filter(fits);
  if (schema.pattern !== undefined) return fc.stringMatching(new RegExp(schema.pattern, 'u')).filter(fits);
  const atLimit = schema.maxLength !== undefined && schema.maxLength <= 100_000 ? [fc.constant('y'.repeat(schema.maxLength))] : [];
  return fc.oneof(
    fc.string({ minLength, maxLength: Math.max(minLength, maxLength), unit: 'grapheme' }),
    fc.string({ minLength, maxLength: Math.max(minLength, maxLength) }),
    ...atLimit,
  );
}

function validNumber(schema: JsonSchema): fc.Arbitrary<number> {
  const min = schema.minimum ?? -1e9;
  const max = schema.maximum ?? 1e9;
  if (schema.type === 'integer') return fc.integer({ min: Math.ceil(Math.max(min, -(2 ** 31))), max: Math.floor(Math.min(max, 2 ** 31)) });
  return fc.oneof(fc.double({ min, max, noNaN: true, noDefaultInfinity: true }), fc.constantFrom(min, max));
}

function validObject(schema: JsonSchema, resolve: SchemaResolver): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const shape = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, validValue(property, resolve)]));
  const record = fc.record(shape, { requiredKeys: (schema.required ?? []).filter((name) => name in properties) });
  if (schema.additionalProperties !== true) return record;
  return fc
    .tuple(record, fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }))
    .map(([known, extra]) => ({ ...extra, ...known }));
}

/**
 * Arbitraries built once per schema: the mutations below pick a property per generated value, and building
 * a pattern's arbitrary (`\\p{L}` is most of Unicode) every time would cost more than the request.
 */
function memoized(build: (schema: JsonSchema, resolve: SchemaResolver) => fc.Arbitrary<unknown>) {
  const built = new WeakMap<JsonSchema, fc.Arbitrary<unknown>>();
  return (schema: JsonSchema, resolve: SchemaResolver): fc.Arbitrary<unknown> => {
    let arbitrary = built.get(schema);
    if (arbitrary === undefined) built.set(schema, (arbitrary = build(schema, resolve)));
    return arbitrary;
  };
}

/** Values the schema accepts (within what fast-check can aim at: patterns and formats are honoured). */
export const validValue = memoized((schema, resolve) => {
  const target = resolve(schema);
  if (target.enum !== undefined) return fc.constantFrom(...target.enum);
  const choices = target.anyOf ?? target.oneOf;
  if (choices !== undefined) return fc.oneof(...choices.map((choice) => validValue(choice, resolve)));
  switch (target.type) {
    case 'string':
      return validString(target);
    case 'number':
    case 'integer':
      return validNumber(target);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(validValue(target.items ?? {}, resolve), {
        minLength: target.minItems ?? 0,
        maxLength: Math.min(target.maxItems ?? 4, 4),
      });
    case 'object':
      return validObject(target, resolve);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
});

/** Values of the schema's own kind that break one of its bounds, or of another kind altogether. */
const wrongValue = memoized((schema, resolve) => {
  const target = resolve(schema);
  const near: fc.Arbitrary<unknown>[] = [anyJson, nastyString];
  if (target.type === 'number' || target.type === 'integer') near.push(boundaryNumbers(target), fc.constantFrom(...NUMBER_LIKE_TEXT));
  // Long lists built cheaply: past every maxItems, the values inside matter less than the count.
  if (target.type === 'array' || target.type === 'object')
    near.push(fc.tuple(fc.integer({ min: 1, max: 1200 }), anyJson).map(([count, item]) => Array.from({ length: count }, () => item)));
  if (target.type === 'object' && target.properties !== undefined) near.push(malformedObject(target, resolve));
  return fc.oneof(...near);
});

/** One way an object body goes wrong: a field of the wrong kind, a field missing, or a polluting key. */
function malformedObject(schema: JsonSchema, resolve: SchemaResolver): fc.Arbitrary<unknown> {
  const properties = Object.entries(schema.properties ?? {});
  const valid = validObject(schema, resolve);
  const mutations: fc.Arbitrary<unknown>[] = [
    fc
      .tuple(valid, fc.constantFrom(...PROTOTYPE_KEYS), fc.oneof(anyJson, fc.constant({ isAdmin: true, polluted: 'yes' })))
      .map(([body, key, value]) => withOwnKey(body, key, value)),
    fc.tuple(valid, fc.string({ maxLength: 12 }), anyJson).map(([body, key, value]) => withOwnKey(body, key, value)),
  ];
  if (properties.length > 0) {
    mutations.push(
      fc
        .tuple(valid, fc.constantFrom(...properties))
        .chain(([body, [name, property]]) => wrongValue(property, resolve).map((value) => withOwnKey(body, name, value))),
    );
  }
  const required = schema.required ?? [];
  if (required.length > 0) {
    mutations.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([body, name]) => {
        const { [name]: _left, ...rest } = body;
        return rest;
      }),
    );
  }
  return fc.oneof(...mutations);
}

/** Mostly almost-valid values (one thing wrong), sometimes nothing like the schema at all. */
export function malformedValue(schema: JsonSchema, resolve: SchemaResolver): fc.Arbitrary<unknown> {
  const target = resolve(schema);
  const choices = target.anyOf ?? target.oneOf;
  if (choices !== undefined) return fc.oneof(...choices.map((choice) => malformedValue(choice, resolve)), anyJson);
  if (target.type === 'object') return fc.oneof({ weight: 4, arbitrary: malformedObject(target, resolve) }, { weight: 1, arbitrary: anyJson });
  return wrongValue(target, resolve);
}
