import fc from 'fast-check';
import type { OpenApiOperation } from '../support/openapi.js';
import { malformedValue, nastyString, validValue, type JsonSchema, type SchemaResolver } from './schema-arbitrary.js';

/** One request as it goes on the wire, minus the credential. */
export interface FuzzRequest {
  method: string;
  /** Path and query string, already encoded. */
  url: string;
  contentType?: string;
  body?: string;
}

/** An operation of the OpenAPI document as the fuzzer reads it. */
export interface FuzzOperation {
  method: string;
  /** OpenAPI form: `/agents/{id}/query`. */
  path: string;
  operation: OpenApiOperation;
}

/**
 * Ids of real records the workspace owns, for a path parameter (`/agents/{id}`: `id`) or a query or body
 * field naming one (`datastoreId`); empty when the name is no id.
 */
export type KnownIds = (path: string, name: string) => readonly string[];

/** A real id in place of a generated one, most of the time: random ids only ever meet a 404. */
function preferKnown<T>(generated: fc.Arbitrary<T>, known: readonly string[]): fc.Arbitrary<T | string> {
  return known.length === 0 ? generated : fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: generated });
}

/** A valid body whose id fields name real records most of the time. */
function validBody(schema: JsonSchema, resolve: SchemaResolver, known: (name: string) => readonly string[]): fc.Arbitrary<unknown> {
  const target = resolve(schema);
  const choices = target.anyOf ?? target.oneOf;
  if (choices !== undefined) return fc.oneof(...choices.map((choice) => validBody(choice, resolve, known)));
  const idFields = Object.keys(target.properties ?? {}).filter((name) => known(name).length > 0);
  if (idFields.length === 0) return validValue(target, resolve);
  const ids = fc.tuple(...idFields.map((name) => fc.option(fc.constantFrom(...known(name)), { freq: 4 })));
  return fc.tuple(validValue(target, resolve), ids).map(([value, chosen]) => {
    if (typeof value !== 'object' || value === null) return value;
    const replaced: Record<string, unknown> = { ...value };
    idFields.forEach((name, index) => {
      const id = chosen[index];
      if (id !== null && id !== undefined && name in replaced) replaced[name] = id;
    });
    return replaced;
  });
}

interface ParameterSchema {
  in: string;
  name: string;
  required?: boolean;
  schema: JsonSchema;
}

const parametersOf = (operation: OpenApiOperation, where: 'path' | 'query'): ParameterSchema[] =>
  ((operation.parameters ?? []) as unknown as ParameterSchema[]).filter((parameter) => parameter.in === where);

/** encodeURIComponent that takes lone surrogates too (as U+FFFD, as a browser would send them). */
const percentEncode = (text: string): string => encodeURIComponent(text.replace(/[\uD800-\uDFFF]/gu, '\uFFFD'));

/** Percent escapes that decode to nothing valid, and separators a router might split on. */
const BROKEN_PATH_SEGMENTS = ['%', '%E0%A4%A', '%FF', '..', '.', '%2F..%2F', '%00', 'a%2Fb', '%25', '%C0%AF'];

/** One part of a request, as the schema wants it and as a careless or hostile client sends it. */
interface RequestPart<T> {
  valid: fc.Arbitrary<T>;
  broken: fc.Arbitrary<T>;
}

function pathSegment(known: readonly string[]): RequestPart<string> {
  return {
    valid: preferKnown(fc.string({ minLength: 1, maxLength: 20 }).map(percentEncode), known),
    broken: fc.oneof(fc.oneof(nastyString, fc.constant('x'.repeat(201))).map(percentEncode), fc.constantFrom(...BROKEN_PATH_SEGMENTS)),
  };
}

/** Query values are text: arrays repeat the parameter, objects go as JSON. */
function queryText(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(queryText);
  if (typeof value === 'object' && value !== null) return [JSON.stringify(value)];
  return [String(value)];
}

type QueryPair = readonly [name: string, text: string];

const queryStringOf = (pairs: readonly QueryPair[]): string =>
  pairs.length === 0 ? '' : `?${pairs.map(([name, text]) => `${percentEncode(name)}=${percentEncode(text)}`).join('&')}`;

/** Any of the parameters, valid; broken: one of them wrong (or repeated), or a stray polluting one beside them. */
function queryString(operation: OpenApiOperation, resolve: SchemaResolver, known: (name: string) => readonly string[]): RequestPart<string> {
  const parameters = parametersOf(operation, 'query');
  const validPairs = (parameter: ParameterSchema) =>
    preferKnown(validValue(parameter.schema, resolve), known(parameter.name)).map((value) =>
      queryText(value).map((text): QueryPair => [parameter.name, text]),
    );
  const valid = fc.tuple(...parameters.map((parameter) => fc.option(validPairs(parameter), { nil: [] }))).map((chosen) => chosen.flat());
  const strayName = fc.oneof(fc.constantFrom('__proto__', 'constructor[prototype]', '__proto__[polluted]', 'a[]', ''), fc.string({ maxLength: 8 }));
  const brokenPairs: fc.Arbitrary<QueryPair[]>[] = [fc.tuple(strayName, nastyString).map((pair) => [pair])];
  if (parameters.length > 0) {
    brokenPairs.push(
      fc
        .constantFrom(...parameters)
        .chain((parameter) =>
          malformedValue(parameter.schema, resolve).map((value) => queryText(value).map((text): QueryPair => [parameter.name, text])),
        ),
    );
  }
  return {
    valid: valid.map(queryStringOf),
    broken: fc.tuple(valid, fc.oneof(...brokenPairs)).map(([pairs, wrong]) => queryStringOf([...pairs, ...wrong])),
  };
}

const BOUNDARY = 'parley-fuzz-boundary';

/** A generated object as a multipart form: `file` as a file part, everything else as text fields. */
function multipart(value: unknown): string {
  const fields = typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.entries(value) : [['file', value] as const];
  const parts = fields.map(([name, field]) => {
    const text = typeof field === 'string' ? field : JSON.stringify(field);
    const disposition = name === 'file' ? `form-data; name="file"; filename="upload.txt"` : `form-data; name="${name.replace(/["\r\n]/g, '')}"`;
    return `--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n\r\n${text}\r\n`;
  });
  return `${parts.join('')}--${BOUNDARY}--\r\n`;
}

/** JSON text cut short, or a parser's edge case (1e309 reads as Infinity, a duplicate key wins). */
function brokenJsonText(value: unknown): fc.Arbitrary<string> {
  const text = JSON.stringify(value) ?? 'null';
  return fc.oneof(
    fc.nat({ max: Math.max(0, text.length - 1) }).map((end) => text.slice(0, end)),
    fc.constantFrom('1e309', '{"a":1e309}', '[1e309]', '"\\ud800"', '{"a":1,"a":2}', '\ufeff{}', '{}garbage'),
  );
}

type Payload = Pick<FuzzRequest, 'body' | 'contentType'>;

const asJson = (value: unknown): Payload => ({ body: JSON.stringify(value), contentType: 'application/json' });

function body(operation: OpenApiOperation, resolve: SchemaResolver, known: (name: string) => readonly string[]): RequestPart<Payload> {
  const content = operation.requestBody?.content ?? {};
  const json = content['application/json']?.schema as JsonSchema | undefined;
  const form = content['multipart/form-data']?.schema as JsonSchema | undefined;
  // Bodies on GET and DELETE must be ignored: some clients of the hosted API send them.
  const stray = fc.jsonValue({ maxDepth: 2 }).map(asJson);
  const valid: fc.Arbitrary<Payload>[] = [];
  const broken: fc.Arbitrary<Payload>[] = [];
  if (json !== undefined) {
    valid.push(validBody(json, resolve, known).map(asJson));
    broken.push(
      malformedValue(json, resolve).map(asJson),
      malformedValue(json, resolve).map(asJson),
      validValue(json, resolve)
        .chain(brokenJsonText)
        .map((text) => ({ body: text, contentType: 'application/json' })),
      fc
        .tuple(
          validValue(json, resolve),
          fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/xml'),
        )
        .map(([value, contentType]) => ({ body: JSON.stringify(value), contentType })),
    );
  }
  if (form !== undefined) {
    const asForm = (value: unknown): Payload => ({ body: multipart(value), contentType: `multipart/form-data; boundary=${BOUNDARY}` });
    valid.push(validBody(form, resolve, known).map(asForm));
    broken.push(malformedValue(form, resolve).map(asForm));
  }
  if (valid.length === 0) return { valid: fc.oneof(fc.constant({}), stray), broken: stray };
  return { valid: fc.oneof(...valid), broken: fc.oneof(...broken, fc.constant({}), stray) };
}

/**
 * Requests for one operation. Two in five are valid in every part (they reach the handler, and may change
 * the store); the rest break one part (path ids, query string or body) and leave the others valid, so the
 * broken part is what the server has to refuse.
 */
export function requestsFor(target: FuzzOperation, resolve: SchemaResolver, knownIds: KnownIds): fc.Arbitrary<FuzzRequest> {
  const names = parametersOf(target.operation, 'path').map((parameter) => parameter.name);
  const segments = names.map((name) => pathSegment(knownIds(target.path, name)));
  const path: RequestPart<string[]> = {
    valid: fc.tuple(...segments.map((segment) => segment.valid)),
    broken: fc.tuple(...segments.map((segment) => fc.oneof(segment.valid, segment.broken))),
  };
  const knownNamed = (name: string) => knownIds(target.path, name);
  const query = queryString(target.operation, resolve, knownNamed);
  const payload = body(target.operation, resolve, knownNamed);
  const build = ([values, search, sent]: [string[], string, Payload]): FuzzRequest => ({
    method: target.method,
    url: names.reduce((built, name, index) => built.replace(`{${name}}`, values[index] ?? ''), target.path) + search,
    ...sent,
  });
  const cases = [
    { weight: 4, arbitrary: fc.tuple(path.valid, query.valid, payload.valid) },
    { weight: 2, arbitrary: fc.tuple(path.valid, query.valid, payload.broken) },
    { weight: 2, arbitrary: fc.tuple(path.valid, query.broken, payload.valid) },
  ];
  if (names.length > 0) cases.push({ weight: 2, arbitrary: fc.tuple(path.broken, query.valid, payload.valid) });
  return fc.oneof(...cases).map(build);
}
