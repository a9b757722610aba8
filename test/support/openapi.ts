import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * The parts of the OpenAPI document Parley serves (GET /openapi.json) that tests read. No route schema
 * declares it (@fastify/swagger writes it from all of them), so its shape is written here, from OpenAPI 3.1,
 * and kept to what the tests look at. (A type, not an interface: it is also a plain JSON record.)
 */
export type OpenApiDocument = {
  openapi: string;
  info: { title: string; version: string };
  components: { securitySchemes: Record<string, OpenApiSecurityScheme | undefined>; schemas: Record<string, unknown> };
  paths: Record<string, Record<string, OpenApiOperation | undefined> | undefined>;
};

export interface OpenApiSecurityScheme {
  type: string;
  scheme?: string;
}

export interface OpenApiOperation {
  security?: Record<string, string[]>[];
  parameters?: OpenApiParameter[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } } | undefined> };
  responses: Record<string, unknown>;
}

export interface OpenApiParameter {
  in: 'query' | 'path' | 'header' | 'cookie';
  name: string;
  schema: { type?: string; minimum?: number; maximum?: number; $ref?: string };
}

/** A schema node of the document, as far as tests look into one. */
export interface OpenApiSchema {
  type?: string;
  anyOf?: OpenApiSchema[];
  properties?: Record<string, OpenApiSchema>;
}

/** The schema of an operation's JSON answer with `status` (`GET`, `/agents/{id}`), or undefined when it documents none. */
export function responseSchemaOf(document: OpenApiDocument, method: string, path: string, status: number): OpenApiSchema | undefined {
  const response = document.paths[path]?.[method.toLowerCase()]?.responses[String(status)] as
    { content?: Record<string, { schema: OpenApiSchema } | undefined> } | undefined;
  return response?.content?.['application/json']?.schema;
}

/**
 * Checks answers against the document's response schemas, compiled once per operation and status, the
 * `#/components` refs resolved. Returns the schema's complaints, empty when the body fits.
 */
export function responseChecker(document: OpenApiDocument): (method: string, path: string, status: number, body: unknown) => unknown[] {
  const ajv = addFormats.default(new Ajv.default({ strict: false, allErrors: true, discriminator: true }));
  const compiled = new Map<string, ValidateFunction>();
  return (method, path, status, body) => {
    const key = `${method} ${path} ${status}`;
    let validate = compiled.get(key);
    if (validate === undefined) {
      const schema = responseSchemaOf(document, method, path, status);
      if (schema === undefined) return [`${key} documents no JSON answer`];
      validate = ajv.compile({ ...schema, components: document.components });
      compiled.set(key, validate);
    }
    return validate(body) ? [] : (validate.errors ?? []);
  };
}
