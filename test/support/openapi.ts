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
