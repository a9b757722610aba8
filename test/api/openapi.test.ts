import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import type { TestParley } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import type { OpenApiDocument } from '../support/openapi.js';

describe('OpenAPI document', () => {
  let parley: TestParley;
  let document: OpenApiDocument;

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley('sqlite');
    const response = await parley.call<OpenApiDocument>('GET', '/openapi.json');
    expect(response.status).toBe(200);
    document = response.body;
  });

  it('is a valid OpenAPI 3.1 document, version 1.0.0, with bearer auth', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.0.0');
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('lists every route the server registers, with its error responses', () => {
    const routes = parley.app.registeredRoutes.filter((route) => !route.hidden);
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes) {
      const path = route.url.replace(/:(\w+)/g, '{$1}');
      const operation = document.paths[path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${path}`).toBeDefined();
      expect(
        operation?.responses['200'] ?? operation?.responses['201'] ?? operation?.responses['202'] ?? operation?.responses['204'],
        `${route.method} ${path}`,
      ).toBeDefined();
      // The dashboard's session endpoints take no bearer credential (a cookie, or nothing yet).
      if (route.url.startsWith('/auth/')) expect(operation?.security, `${route.method} ${path}`).toEqual([]);
      // Probes, and vendors' deliveries to a channel connection (verified by the connection's own secret, not a key).
      const open = ['/healthz', '/readyz', '/channels/{id}/inbound'].includes(path);
      if (open) {
        expect(operation?.security).toEqual([]);
      } else {
        for (const status of ['400', '401', '403', '404', '500']) {
          expect(operation?.responses[status], `${route.method} ${path} ${status}`).toBeDefined();
        }
      }
    }
  });

  it('names each shared schema once, under components.schemas, and points at it', () => {
    expect(Object.keys(document.components.schemas)).toEqual(expect.arrayContaining(['ErrorBody', 'Id', 'SearchFilters']));
    const filters = (path: string) => document.paths[path]?.post?.requestBody?.content['application/json']?.schema.properties?.filters;
    expect(filters('/datastores/{id}/query')).toEqual({ $ref: '#/components/schemas/SearchFilters' });
    expect(filters('/agents/{id}/query')).toEqual({ $ref: '#/components/schemas/SearchFilters' });
    const replay = document.paths['/webhooks/{id}/deliveries/{deliveryId}/replay']?.post?.parameters ?? [];
    expect(replay.map((parameter) => parameter.schema)).toEqual([{ $ref: '#/components/schemas/Id' }, { $ref: '#/components/schemas/Id' }]);
  });

  it('serves a human docs page', async () => {
    const response = await fetch(`${parley.url}/docs/`);
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/<html/i);
  });
});
