import { describe, expect, it } from 'vitest';
import { startTestParley, type TestParley, type Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import { detailFields, type AgentBody, type DatastoreBody, type ErrorBody } from '../support/bodies.js';

describe.each(STORE_KINDS)('agents API on %s', (kind) => {
  let parley: TestParley;
  let ws: Workspace;

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind);
    ws = await parley.newWorkspace();
  });

  const call = <T>(method: string, path: string, body?: unknown) => parley.call<T>(method, path, { key: ws.key, body });

  it('creates an agent with the documented defaults from an empty body', async () => {
    const { status, body } = await call<AgentBody>('POST', '/agents', {});
    expect(status).toBe(200);
    expect(body).toMatchObject({
      name: 'Untitled agent',
      description: '',
      modelName: 'llm_b_mini',
      temperature: 0,
      visibility: 'private',
      systemPrompt: '',
      userPrompt: '{query}',
      tools: [],
    });
    expect(body.id).toEqual(expect.any(String));
    expect(Date.parse(body.createdAt)).not.toBeNaN();
    expect(body).not.toHaveProperty('workspaceId');
  });

  it('creates an agent without any body at all', async () => {
    const { status, body } = await parley.call<AgentBody>('POST', '/agents', { key: ws.key });
    expect(status).toBe(200);
    expect(body.name).toBe('Untitled agent');
  });

  it('runs the whole lifecycle: create, get, list, patch, delete', async () => {
    const datastore = (await call<DatastoreBody>('POST', '/datastores', { name: 'Handbook' })).body;
    const created = await call<AgentBody>('POST', '/agents', {
      name: 'Support',
      description: 'Answers customers',
      modelName: 'llm_a',
      temperature: 0.4,
      visibility: 'public',
      systemPrompt: 'Be brief.',
      userPrompt: 'Q: {query}\n{context}',
      tools: [{ type: 'datastore', datastoreId: datastore.id }],
    });
    expect(created.status).toBe(200);
    const agent = created.body;
    expect(agent).toMatchObject({ name: 'Support', temperature: 0.4, visibility: 'public', modelName: 'llm_a' });
    expect(agent.tools).toEqual([{ type: 'datastore', datastoreId: datastore.id }]);

    expect((await call<AgentBody>('GET', `/agents/${agent.id}`)).body).toEqual(agent);
    const listed = (await call<AgentBody[]>('GET', '/agents')).body;
    expect(listed[0]).toEqual(agent);

    const patched = await call<AgentBody>('PATCH', `/agents/${agent.id}`, { name: 'Support bot', temperature: 1 });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Support bot', temperature: 1, description: 'Answers customers' });
    // A PATCH without tools leaves the datastore links alone (the older service wiped them).
    expect(patched.body.tools).toEqual(agent.tools);
    expect(Date.parse(patched.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(agent.updatedAt));

    const cleared = await call<AgentBody>('PATCH', `/agents/${agent.id}`, { tools: [], systemPrompt: null });
    // Cleared with null, read back as the empty string: a string in the older public OpenAPI document.
    expect(cleared.body).toMatchObject({ tools: [], systemPrompt: '' });

    const deleted = await call<AgentBody>('DELETE', `/agents/${agent.id}`, {});
    expect(deleted.status).toBe(200);
    expect(deleted.body.id).toBe(agent.id);
    expect(deleted.body.name).toBe('Support bot');
    expect((await call('GET', `/agents/${agent.id}`)).status).toBe(404);
  });

  it('lists newest first and only the workspace’s own agents', async () => {
    const other = await parley.newWorkspace();
    await parley.call('POST', '/agents', { key: other.key, body: { name: 'Not yours' } });
    const first = (await call<AgentBody>('POST', '/agents', { name: 'first' })).body;
    const second = (await call<AgentBody>('POST', '/agents', { name: 'second' })).body;
    const listed = (await call<AgentBody[]>('GET', '/agents')).body;
    const ids = listed.map((agent) => agent.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(listed.map((agent) => agent.name)).not.toContain('Not yours');
  });

  it('takes the deprecated promptTemplate as the user prompt', async () => {
    const { body } = await call<AgentBody>('POST', '/agents', { promptType: 'raw', promptTemplate: 'Answer: {query}' });
    expect(body.userPrompt).toBe('Answer: {query}');
    const both = await call<AgentBody>('POST', '/agents', { promptTemplate: 'old', userPrompt: 'new {query}' });
    expect(both.body.userPrompt).toBe('new {query}');
  });

  it.each([
    ['temperature above 1', { temperature: 1.5 }, 'body.temperature'],
    ['temperature below 0', { temperature: -0.1 }, 'body.temperature'],
    ['temperature as text', { temperature: '0.5' }, 'body.temperature'],
    ['unknown visibility', { visibility: 'secret' }, 'body.visibility'],
    ['empty name', { name: '' }, 'body.name'],
    ['tools not an array', { tools: 'ds' }, 'body.tools'],
    ['tool of unknown type', { tools: [{ type: 'web', datastoreId: 'x' }] }, 'body.tools.0.type'],
    ['tool without datastore', { tools: [{ type: 'datastore' }] }, 'body.tools.0.datastoreId'],
    ['body not an object', [1, 2], 'body'],
  ])('refuses %s with 400 naming the field', async (_label, body, field) => {
    for (const [method, path] of [
      ['POST', '/agents'],
      ['PATCH', `/agents/${(await call<AgentBody>('POST', '/agents', {})).body.id}`],
    ] as const) {
      const response = await call<ErrorBody>(method, path, body);
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('INVALID_REQUEST');
      expect(detailFields(response.body)).toContain(field);
      expect(response.body.requestId).toEqual(expect.any(String));
    }
  });

  it('refuses a model name nobody configured with 400 UNKNOWN_MODEL, on create and change', async () => {
    const agent = (await call<AgentBody>('POST', '/agents', {})).body;
    for (const [method, path] of [
      ['POST', '/agents'],
      ['PATCH', `/agents/${agent.id}`],
    ] as const) {
      const response = await call<ErrorBody>(method, path, { modelName: 'gpt-unknown' });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('UNKNOWN_MODEL');
      expect(response.body.message).toContain('gpt-unknown');
    }
    expect((await call<AgentBody>('GET', `/agents/${agent.id}`)).body.modelName).toBe(agent.modelName);
  });

  it('lists every bad field at once', async () => {
    const { body } = await call<ErrorBody>('POST', '/agents', { temperature: 2, visibility: 'nobody', modelName: '' });
    expect(detailFields(body).sort()).toEqual(['body.modelName', 'body.temperature', 'body.visibility']);
  });

  it('refuses a tool that points at a datastore that does not exist', async () => {
    const response = await call<ErrorBody>('POST', '/agents', { tools: [{ type: 'datastore', datastoreId: 'nope' }] });
    expect(response.status).toBe(404);
    expect(response.body.error).toBe('NOT_FOUND');
  });

  it('answers 404 for unknown ids on every item route', async () => {
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const response = await call<ErrorBody>(method, '/agents/does-not-exist', method === 'PATCH' ? { name: 'x' } : undefined);
      expect(response.status).toBe(404);
      expect(response.body.error).toBe('NOT_FOUND');
    }
  });

  it('accepts configured model names besides the built-in ones', async () => {
    const custom = await startTestParley(kind, {
      env: { PARLEY_MODELS: '{"local-llama": {"provider": "openai-compatible", "model": "llama3", "baseURL": "http://127.0.0.1:9/v1"}}' },
    });
    try {
      const other = await custom.newWorkspace();
      const { status, body } = await custom.call<AgentBody>('POST', '/agents', { key: other.key, body: { modelName: 'local-llama' } });
      expect(status).toBe(200);
      expect(body.modelName).toBe('local-llama');
    } finally {
      await custom.close();
    }
  });
});
