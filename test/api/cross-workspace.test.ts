import { describe, expect } from 'vitest';
import { parleyTest as it } from '../support/parley-test.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import {
  undeclared,
  type AgentBody,
  type AnswerBody,
  type ApiKeyBody,
  type DatasourceBody,
  type DatastoreBody,
  type ErrorBody,
} from '../support/bodies.js';
import { EventStreamClient } from '../support/event-stream.js';
import { ROUTE_TABLE, authenticatedRoutes, bodyOptions, seedWorkspace, type Seed } from './route-table.js';

describe.each(STORE_KINDS)('every route, across workspaces, on %s', (kind) => {
  let parley: TestParley;
  let seed: Seed;
  let b: Workspace;
  /** A visitor token of workspace B's public agent: it continues one conversation and is no key anywhere. */
  let visitorToken: string;
  /** An owner of workspace B, signed in to the dashboard: their access token is B's, like B's key. */
  let memberToken: string;

  it.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind);
    seed = await seedWorkspace(parley);
    b = await parley.newWorkspace();
    const bAgent = (await parley.call<AgentBody>('POST', '/agents', { key: b.key, body: { visibility: 'public' } })).body.id;
    visitorToken = (await parley.call<AnswerBody>('POST', `/agents/${bAgent}/query`, { key: null, body: { query: 'hello' } })).body.visitorToken;
    memberToken = (await parley.newMember(b.id, 'owner')).accessToken;
  });

  it('has a table entry for every authenticated route the server registers', () => {
    const missing = authenticatedRoutes(parley).filter((route) => !(route in ROUTE_TABLE));
    expect(missing).toEqual([]);
  });

  const cases = Object.entries(ROUTE_TABLE);

  const credentials = cases.flatMap(([route, routeCase]) => [[route, 'key', routeCase] as const, [route, 'member token', routeCase] as const]);

  it.each(credentials)('%s: another workspace’s %s cannot reach workspace A', async (route, credential, routeCase) => {
    const method = route.split(' ')[0]!;
    const request = routeCase.request(seed);
    const path = request.path;
    const options = { key: credential === 'key' ? b.key : memberToken, ...bodyOptions(request) };
    if (routeCase.stream === true) {
      const stream = await EventStreamClient.open(parley.url, {
        key: options.key,
        since: new URL(path, parley.url).searchParams.get('since') ?? undefined,
      });
      stream.close();
      expect(stream.resumed).toBe(false);
      if (typeof routeCase.foreign === 'function') routeCase.foreign(stream.events.items, seed);
    } else if (routeCase.foreign === 'visitors only') {
      const response = await parley.call<ErrorBody>(method, path, options);
      expect(response.status).toBe(401);
      expect(response.body.error).toBe('UNAUTHORIZED');
    } else if (routeCase.foreign === 'forbidden') {
      const response = await parley.call<ErrorBody>(method, path, options);
      expect(response.status).toBe(403);
      expect(response.body.error).toBe('FORBIDDEN');
    } else {
      const response = await parley.call(method, path, options);
      expect(response.status).toBe(200);
      routeCase.foreign(response.body, seed);
    }
    // Whatever B tried, A's resources are as A left them.
    const agent = await parley.call<AgentBody>('GET', `/agents/${seed.agentId}`, { key: seed.a.key });
    expect(agent.body).toMatchObject({ name: 'A agent', tools: [{ type: 'datastore', datastoreId: seed.datastoreId }] });
    expect((await parley.call<DatastoreBody>('GET', `/datastores/${seed.datastoreId}`, { key: seed.a.key })).body.name).toBe('A data');
    expect((await parley.call<ApiKeyBody[]>('GET', '/keys', { key: seed.a.key })).body).toHaveLength(2);
    const datasource = await parley.call<DatasourceBody>('GET', `/datasources/${seed.datasourceId}`, { key: seed.a.key });
    expect(datasource.body).toMatchObject({ name: 'A notes', datastoreId: seed.datastoreId });
    expect(undeclared(datasource.body, 'generation')).toBeUndefined();
    const listed = await parley.call<DatasourceBody[]>('GET', `/datastores/${seed.datastoreId}/datasources`, { key: seed.a.key });
    expect(listed.body).toHaveLength(2);
    expect(listed.body.find((listedOne) => listedOne.id === seed.qaEntryId)?.config).toMatchObject({ answer: 'Private answers of A.' });
  });

  it.each(cases)(
    '%s: 401 without a key, with a wrong key and with another workspace’s visitor token (404 where open to callers without one)',
    async (route, routeCase) => {
      const method = route.split(' ')[0]!;
      const { path, body } = routeCase.request(seed);
      expect(visitorToken).toMatch(/^eyJ/);
      for (const key of [null, 'pk_live_not-a-real-key-000000000000000', visitorToken]) {
        const response = await parley.call<ErrorBody>(method, path, { key, body });
        const [status, error] = routeCase.keyless === 'not found' && key?.startsWith('pk_') !== true ? [404, 'NOT_FOUND'] : [401, 'UNAUTHORIZED'];
        expect(response.status).toBe(status);
        expect(response.body.error).toBe(error);
      }
    },
  );
});
