import { describe, expect, it } from 'vitest';
import type { TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import { detailFields, type AgentBody, type DatastoreBody, type ErrorBody } from '../support/bodies.js';

describe.each(STORE_KINDS)('datastores API on %s', (kind) => {
  let parley: TestParley;
  let ws: Workspace;

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind);
    ws = await parley.newWorkspace();
  });

  const call = <T>(method: string, path: string, body?: unknown) => parley.call<T>(method, path, { key: ws.key, body });

  it('creates with defaults what older clients send (description and type only)', async () => {
    const { status, body } = await call<DatastoreBody>('POST', '/datastores', { description: 'FAQ', type: 'vector_a' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ name: 'Untitled datastore', description: 'FAQ', type: 'vector_a', visibility: 'private' });
    expect(body).not.toHaveProperty('workspaceId');
  });

  it('runs the whole lifecycle: create, get, list, patch by path id, delete', async () => {
    const created = (await call<DatastoreBody>('POST', '/datastores', { name: 'Docs', description: 'Product docs' })).body;
    expect((await call<DatastoreBody>('GET', `/datastores/${created.id}`)).body).toEqual(created);
    const listed = (await call<DatastoreBody[]>('GET', '/datastores')).body;
    expect(listed[0]).toEqual(created);

    const patched = await call<DatastoreBody>('PATCH', `/datastores/${created.id}`, { name: 'Docs v2', visibility: 'public' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: created.id, name: 'Docs v2', description: 'Product docs', visibility: 'public' });

    const deleted = await call<DatastoreBody>('DELETE', `/datastores/${created.id}`, {});
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: created.id, name: 'Docs v2' });
    expect((await call('GET', `/datastores/${created.id}`)).status).toBe(404);
    expect((await call<DatastoreBody[]>('GET', '/datastores')).body.map((d) => d.id)).not.toContain(created.id);
  });

  it('detaches a deleted datastore from the agents that used it', async () => {
    const kept = (await call<DatastoreBody>('POST', '/datastores', { name: 'kept' })).body;
    const doomed = (await call<DatastoreBody>('POST', '/datastores', { name: 'doomed' })).body;
    const agent = (
      await call<AgentBody>('POST', '/agents', {
        tools: [
          { type: 'datastore', datastoreId: doomed.id },
          { type: 'datastore', datastoreId: kept.id },
        ],
      })
    ).body;
    expect(agent.tools).toHaveLength(2);
    await call('DELETE', `/datastores/${doomed.id}`);
    const after = (await call<AgentBody>('GET', `/agents/${agent.id}`)).body;
    expect(after.tools).toEqual([{ type: 'datastore', datastoreId: kept.id }]);
  });

  it.each([
    ['unknown type', { type: 'vector_b' }, 'body.type'],
    ['unknown visibility', { visibility: 'everyone' }, 'body.visibility'],
    ['name not a string', { name: 42 }, 'body.name'],
    ['empty name', { name: '' }, 'body.name'],
    ['description too long', { description: 'x'.repeat(4001) }, 'body.description'],
    ['vectorWindows not a boolean', { vectorWindows: 'off' }, 'body.vectorWindows'],
  ])('refuses %s with 400 naming the field', async (_label, body, field) => {
    const existing = (await call<DatastoreBody>('POST', '/datastores', {})).body;
    for (const [method, path] of [
      ['POST', '/datastores'],
      ['PATCH', `/datastores/${existing.id}`],
    ] as const) {
      const response = await call<ErrorBody>(method, path, body);
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('INVALID_REQUEST');
      expect(detailFields(response.body)).toContain(field);
    }
  });

  it('answers 404 for unknown ids on every item route', async () => {
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const response = await call<ErrorBody>(method, '/datastores/does-not-exist', method === 'PATCH' ? { name: 'x' } : undefined);
      expect(response.status).toBe(404);
      expect(response.body.error).toBe('NOT_FOUND');
    }
  });
});
