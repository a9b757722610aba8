import { describe, expect, it } from 'vitest';
import { responseChecker, responseSchemaOf, type OpenApiDocument } from '../support/openapi.js';
import type { TestParley } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import { ROUTE_TABLE, bodyOptions, seedWorkspace, type Seed } from './route-table.js';

/**
 * The string fields of the older public OpenAPI document (spec/chaindesk-openapi.yaml), which clients of
 * the older API generate code from: on our responses they are strings, never null (absent at most, where
 * they are a date not yet known).
 */
const PUBLIC_STRING_FIELDS: Readonly<Record<string, readonly string[]>> = {
  'GET /agents/{id}': ['id', 'name', 'description', 'systemPrompt', 'userPrompt'],
  'GET /datastores/{id}': ['id', 'name', 'description'],
  'GET /datasources/{id}': ['id', 'type', 'name', 'groupId', 'createdAt', 'updatedAt', 'lastSynch'],
};

describe.each(STORE_KINDS)('responses against the OpenAPI document on %s', (kind) => {
  let parley: TestParley;
  let seed: Seed;
  let document: OpenApiDocument;
  let checkResponse: ReturnType<typeof responseChecker>;

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind);
    seed = await seedWorkspace(parley);
    document = (await parley.call<OpenApiDocument>('GET', '/openapi.json')).body;
    checkResponse = responseChecker(document);
  });

  it('types the public document’s string fields as strings, never null', () => {
    for (const [key, fields] of Object.entries(PUBLIC_STRING_FIELDS)) {
      const [method, path] = key.split(' ') as [string, string];
      const schema = responseSchemaOf(document, method, path, 200);
      // Where callers without a key get a shape of their own (a public agent's look), the keyed record comes first.
      const { properties = {} } = schema?.anyOf?.[0] ?? schema ?? {};
      for (const field of fields) expect(properties[field], `${key} ${field}`).toMatchObject({ type: 'string' });
    }
  });

  it('shows a new agent’s and datasource’s missing values as empty strings, not null', async () => {
    const agent = await parley.call<Record<string, unknown>>('GET', `/agents/${seed.agentId}`, { key: seed.a.key });
    expect(agent.body).toMatchObject({ systemPrompt: '' });
    const datasource = await parley.call<Record<string, unknown>>('GET', `/datasources/${seed.datasourceId}`, { key: seed.a.key });
    expect(datasource.body).toMatchObject({ groupId: '' });
    expect(datasource.body).not.toHaveProperty('lastSynch');
  });

  // The cross-workspace table's requests, made by the owner: every kind of record the API returns.
  const walked = Object.entries(ROUTE_TABLE)
    .filter(([, route]) => route.stream === undefined && route.foreign !== 'visitors only')
    // Deletions last, so the routes before them meet the seeded records alive; a datasource before its datastore.
    .sort(([a], [b]) => Number(a.startsWith('DELETE')) - Number(b.startsWith('DELETE')) || (a.startsWith('DELETE') ? a.localeCompare(b) : 0));

  it('answers every route with a body its documented schema accepts', async () => {
    const checked: string[] = [];
    for (const [key, route] of walked) {
      const [method, url] = key.split(' ') as [string, string];
      const request = route.request(seed);
      const response = await parley.call(method, request.path, { key: seed.a.key, ...bodyOptions(request) });
      expect(response.status, `${key}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
      if (!response.headers.get('content-type')?.startsWith('application/json')) continue;
      const complaints = checkResponse(method, url.replace(/:(\w+)/g, '{$1}'), response.status, response.body);
      expect(complaints, `${key}: ${JSON.stringify(response.body)}`).toEqual([]);
      checked.push(key);
    }
    expect(checked).toEqual(expect.arrayContaining(['GET /agents/:id', 'GET /datastores/:id', 'GET /datasources/:id', 'GET /conversations/:id']));
  });
});
