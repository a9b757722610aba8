import fs from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { secretKeyFileOf } from '../../src/secret-key-file.js';
import type { AgentBody, AnswerBody, ErrorBody, ModelBody, ModelProviderBody, ProviderTestBody } from '../support/bodies.js';
import { FakeOpenAIChatServer, GREETING } from '../support/fake-openai-chat-server.js';
import { startTestParley, type ApiResponse, type TestParley, type Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { storedBytes } from '../support/stored-bytes.js';
import { STORE_KINDS } from '../support/stores.js';

const PROVIDER_KEY = 'sk-test-0123456789-providerkey-x7Qa';
const NEW_PROVIDER_KEY = 'sk-test-9876543210-replacedkey-Zz9b';

/**
 * Models chosen in the dashboard (README, "Connecting a real model from the dashboard"): a workspace connects a provider, its key sealed at rest
 * and never returned; a test call; a model name served by the provider's model; agents answer through it.
 */
describe.each(STORE_KINDS)('model providers of a workspace, on %s', (kind) => {
  let parley: TestParley;
  let fake: FakeOpenAIChatServer;
  let baseUrl: string;
  let ws: Workspace;
  /** Every response body the API gave in this file: none may hold a key. */
  const seen: unknown[] = [];
  const call = async <T>(method: string, route: string, key: string, body?: unknown): Promise<ApiResponse<T>> => {
    const response = await parley.call<T>(method, route, { key, body });
    seen.push(response.body);
    return response;
  };
  const ask = (key: string, agentId: string) => call<AnswerBody & ErrorBody>('POST', `/agents/${agentId}/query`, key, { query: 'Who answers?' });

  parleyTest.beforeAll(async ({ startParley }) => {
    fake = new FakeOpenAIChatServer({ defaultReply: GREETING });
    fake.apiKey = PROVIDER_KEY;
    fake.models = ['fake-chat', 'fake-large'];
    baseUrl = await fake.start();
    parley = await startParley(kind);
    ws = await parley.newWorkspace();
  });
  afterAll(async () => {
    await fake.stop();
  });

  let providerId: string;
  let agentId: string;

  it('connects a provider, tests it, maps llm_a to its model, and an agent answers through it with the key', async () => {
    const created = await call<ModelProviderBody>('POST', '/model-providers', ws.key, {
      name: 'Our vLLM',
      kind: 'openai-compatible',
      baseUrl: `${baseUrl}/`,
      apiKey: PROVIDER_KEY,
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'Our vLLM', kind: 'openai-compatible', baseUrl, apiKeyHint: 'sk-…x7Qa', keyReadable: true });
    providerId = created.body.id;

    const tested = await call<ProviderTestBody>('POST', `/model-providers/${providerId}/test`, ws.key);
    expect(tested.body).toMatchObject({ ok: true, code: 'ok', models: ['fake-chat', 'fake-large'] });
    expect(fake.requests.at(-1)).toMatchObject({ method: 'GET', url: '/v1/models' });
    expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${PROVIDER_KEY}`);

    const mapped = await call<ModelBody>('PUT', '/model-routes/llm_a', ws.key, { providerId, model: 'fake-chat' });
    expect(mapped.body).toMatchObject({
      name: 'llm_a',
      provider: 'openai-compatible',
      model: 'fake-chat',
      providerId,
      providerName: 'Our vLLM',
      operatorDefault: { provider: 'local', model: 'local-extractive' },
    });
    const models = await call<ModelBody[]>('GET', '/models', ws.key);
    expect(models.body.find((model) => model.name === 'llm_b')).toMatchObject({ provider: 'local', providerId: null });

    agentId = (await call<AgentBody>('POST', '/agents', ws.key, { name: 'Routed', modelName: 'llm_a' })).body.id;
    const answer = await ask(ws.key, agentId);
    expect(answer.status).toBe(200);
    expect(answer.body.answer).toBe('Hello from the fake server.');
    expect(answer.body.model).toEqual({ name: 'llm_a', provider: 'openai-compatible', model: 'fake-chat', providerName: 'Our vLLM' });
    const chat = fake.requests.at(-1)!;
    expect(chat).toMatchObject({ method: 'POST', url: '/v1/chat/completions', body: { model: 'fake-chat' } });
    expect(chat.headers.authorization).toBe(`Bearer ${PROVIDER_KEY}`);
  });

  it('tells which model answered only to the workspace: a visitor of a public agent is not told the provider', async () => {
    const open = (await call<AgentBody>('POST', '/agents', ws.key, { name: 'Public routed', modelName: 'llm_a', visibility: 'public' })).body.id;
    const answer = await parley.call<AnswerBody>('POST', `/agents/${open}/query`, { key: null, body: { query: 'Who answers?' } });
    expect(answer.body.answer).toBe('Hello from the fake server.');
    expect(answer.body).not.toHaveProperty('model');
  });

  it('reports a refused key with our code and words, never the provider’s text', async () => {
    const wrong = await call<ModelProviderBody>('POST', '/model-providers', ws.key, {
      name: 'Wrong key',
      kind: 'openai-compatible',
      baseUrl,
      apiKey: 'sk-wrong-0123456789-leaky-key',
    });
    const tested = await call<ProviderTestBody>('POST', `/model-providers/${wrong.body.id}/test`, ws.key);
    expect(tested.body).toMatchObject({ ok: false, code: 'unauthorized', status: 401 });
    // The fake server echoes the Authorization header it got, as some servers do.
    expect(JSON.stringify(tested.body)).not.toContain('leaky');
    expect(JSON.stringify(tested.body)).not.toContain('Incorrect');
    await call('DELETE', `/model-providers/${wrong.body.id}`, ws.key);
  });

  it('uses a replaced key from the next answer on, and the operator’s model again once the name is unmapped', async () => {
    fake.apiKey = NEW_PROVIDER_KEY;
    const patched = await call<ModelProviderBody>('PATCH', `/model-providers/${providerId}`, ws.key, { apiKey: NEW_PROVIDER_KEY });
    expect(patched.body.apiKeyHint).toBe('sk-…Zz9b');
    const answer = await ask(ws.key, agentId);
    expect(answer.status).toBe(200);
    expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${NEW_PROVIDER_KEY}`);

    const unmapped = await call<ModelBody>('DELETE', '/model-routes/llm_a', ws.key);
    expect(unmapped.body).toMatchObject({ name: 'llm_a', provider: 'local', providerId: null });
    const local = await ask(ws.key, agentId);
    expect(local.body.model).toMatchObject({ provider: 'local', model: 'local-extractive', providerName: null });
    await call('PUT', '/model-routes/llm_a', ws.key, { providerId, model: 'fake-chat' });
  });

  it('refuses what cannot work: no base URL for a compatible server, an address the outbound policy forbids, an unknown name', async () => {
    const noUrl = await call<ErrorBody>('POST', '/model-providers', ws.key, { name: 'x', kind: 'openai-compatible' });
    expect(noUrl.status).toBe(400);
    expect(noUrl.body.details).toEqual([expect.objectContaining({ field: 'body.baseUrl' })]);
    const blocked = await call<ErrorBody>('POST', '/model-providers', ws.key, {
      name: 'x',
      kind: 'openai-compatible',
      baseUrl: 'http://10.1.2.3/v1',
    });
    expect(blocked.status).toBe(400);
    expect(blocked.body.details).toEqual([expect.objectContaining({ field: 'body.baseUrl' })]);
    const noKey = await call<ErrorBody>('POST', '/model-providers', ws.key, { name: 'x', kind: 'openai' });
    expect(noKey.body.details).toEqual([expect.objectContaining({ field: 'body.apiKey' })]);
    const unknown = await call<ErrorBody>('PUT', '/model-routes/no_such_model', ws.key, { providerId, model: 'fake-chat' });
    expect([unknown.status, unknown.body.error]).toEqual([400, 'UNKNOWN_MODEL']);
  });

  it('keeps one workspace’s providers and choices from another', async () => {
    const other = await parley.newWorkspace();
    expect((await call<ModelProviderBody[]>('GET', '/model-providers', other.key)).body).toEqual([]);
    const stolen = await call<ErrorBody>('PUT', '/model-routes/llm_a', other.key, { providerId, model: 'fake-chat' });
    expect([stolen.status, stolen.body.error]).toEqual([403, 'FORBIDDEN']);
    expect((await call<ErrorBody>('POST', `/model-providers/${providerId}/test`, other.key)).status).toBe(403);
    const theirs = (await call<AgentBody>('POST', '/agents', other.key, { name: 'Theirs', modelName: 'llm_a' })).body.id;
    const answer = await ask(other.key, theirs);
    expect(answer.body.model).toMatchObject({ provider: 'local', providerName: null });
  });

  it('lets only owners and admins see or change providers', async () => {
    const member = await parley.newMember(ws.id, 'member');
    for (const [method, route, body] of [
      ['GET', '/model-providers', undefined],
      ['POST', '/model-providers', { name: 'mine', kind: 'openai-compatible', baseUrl }],
      ['POST', `/model-providers/${providerId}/test`, undefined],
      ['PUT', '/model-routes/llm_b', { providerId, model: 'fake-chat' }],
    ] as const) {
      const response = await call<ErrorBody>(method, route, member.accessToken, body);
      expect([response.status, response.body.error], `${method} ${route}`).toEqual([403, 'FORBIDDEN']);
    }
    // What serves each name is no secret: the agent form shows it to every member.
    expect((await call<ModelBody[]>('GET', '/models', member.accessToken)).status).toBe(200);
    const admin = await parley.newMember(ws.id, 'admin');
    expect((await call('GET', '/model-providers', admin.accessToken)).status).toBe(200);
  });

  it('never returns the key, and keeps it sealed in the database', async () => {
    const everything = JSON.stringify(seen);
    for (const key of [PROVIDER_KEY, NEW_PROVIDER_KEY, 'sk-wrong-0123456789-leaky-key']) expect(everything).not.toContain(key);
    const stored = await storedBytes(parley, 'model_provider');
    expect(stored).toContain('Our vLLM');
    for (const key of [PROVIDER_KEY, NEW_PROVIDER_KEY]) {
      expect(stored).not.toContain(key);
      expect(stored).not.toContain(Buffer.from(key).toString('base64'));
    }
    if (kind === 'sqlite') {
      const { mode } = await fs.stat(secretKeyFileOf(parley.config.dataDir));
      expect(mode & 0o777).toBe(0o600);
    }
  });

  it('with another secret key: says the key must be entered again, and the server keeps answering', async () => {
    const restarted = await startTestParley(kind, { scratch: parley.scratch, env: { PARLEY_SECRET_KEY: Buffer.alloc(32, 7).toString('base64') } });
    try {
      const [provider] = (await restarted.call<ModelProviderBody[]>('GET', '/model-providers', { key: ws.key })).body;
      expect(provider).toMatchObject({ id: providerId, keyReadable: false, apiKeyHint: 'sk-…Zz9b' });
      const tested = await restarted.call<ProviderTestBody>('POST', `/model-providers/${providerId}/test`, { key: ws.key });
      expect(tested.body).toMatchObject({ ok: false, code: 'key_unreadable' });
      const answer = await restarted.call<ErrorBody>('POST', `/agents/${agentId}/query`, { key: ws.key, body: { query: 'Who answers?' } });
      expect([answer.status, answer.body.error]).toEqual([500, 'SECRET_KEY_MISMATCH']);
      expect(answer.body.message).toMatch(/enter it again/);
      expect((await restarted.call('GET', '/healthz')).status).toBe(200);
      // Entering the key again under the new secret key makes it work.
      await restarted.call('PATCH', `/model-providers/${providerId}`, { key: ws.key, body: { apiKey: NEW_PROVIDER_KEY } });
      const again = await restarted.call<AnswerBody>('POST', `/agents/${agentId}/query`, { key: ws.key, body: { query: 'Who answers?' } });
      expect(again.body.model).toMatchObject({ providerName: 'Our vLLM' });
    } finally {
      await restarted.close();
    }
  });
});
