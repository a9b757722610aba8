import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, uploadFile, waitForDatasource } from '../support/datasources.js';
import { CITATION_RULES } from '../../src/llm/prompt/assemble-prompt.js';
import { FakeOpenAIChatServer, GREETING } from '../support/fake-openai-chat-server.js';
import { askLikeHostedWidget } from '../support/hosted-widget.js';
import { streamAnswer } from '../support/streamed-answer.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import {
  detailFields,
  type AgentBody,
  type AnswerBody,
  type ConversationBody,
  type DatasourceBody,
  type DatastoreBody,
  type ErrorBody,
} from '../support/bodies.js';

const QUESTION = 'How many bottles of water were delivered?';

describe.each(STORE_KINDS)('POST /agents/{id}/query on %s', (kind) => {
  const upstream = new FakeOpenAIChatServer();
  let parley: TestParley;
  let ws: Workspace;
  let agentId: string;
  let datastoreId: string;

  parleyTest.beforeAll(async ({ startParley }) => {
    const baseURL = await upstream.start();
    parley = await startParley(kind, {
      workers: true,
      env: { PARLEY_MODELS: JSON.stringify({ remote: { provider: 'openai-compatible', model: 'fake-chat', baseURL } }) },
    });
    ws = await parley.newWorkspace();
    datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: { name: 'memos' } })).body.id;
    for (const file of ['pdf-memo-1p.pdf', 'md-ibm-wiki.md']) {
      const created = await uploadFile<DatasourceBody>(parley, { key: ws.key, datastoreId, file: path.join(FIXTURES, file) });
      expect((await waitForDatasource(parley, ws.key, created.body.id)).status).toBe('synched');
    }
    agentId = (
      await parley.call<AgentBody>('POST', '/agents', {
        key: ws.key,
        body: { name: 'Logistics', temperature: 0.2, tools: [{ type: 'datastore', datastoreId }] },
      })
    ).body.id;
  }, 180_000);
  afterAll(async () => {
    await upstream.stop();
  });

  const ask = <T = AnswerBody>(body: unknown, key: string | null = ws.key, agent = agentId) =>
    parley.call<T>('POST', `/agents/${agent}/query`, { key, body });

  it('answers from the knowledge base with the built-in model, cites the memo and stores the exchange', async () => {
    const { status, body } = await ask({ query: QUESTION });
    expect(status).toBe(200);
    expect(body.answer).toContain('20,000');
    expect(body.sources?.[0]).toMatchObject({ datasource_name: 'pdf-memo-1p.pdf', datasource_type: 'file', page_number: 1 });
    expect(body.sources?.[0]?.text).toContain('20,000 bottles');
    expect(body.usage!.totalTokens).toBe(body.usage!.promptTokens + body.usage!.completionTokens);
    expect(body.usage?.completionTokens).toBeGreaterThan(0);

    const conversation = (await parley.call<ConversationBody>('GET', `/conversations/${body.conversationId}`, { key: ws.key })).body;
    expect(conversation.channel).toBe('api');
    expect(conversation.agent).toMatchObject({ id: agentId, name: 'Logistics' });
    expect(conversation.messages.map((m) => m.from)).toEqual(['agent', 'human']);
    expect(conversation.messages[0]).toMatchObject({ id: body.messageId, text: body.answer });
  });

  it('says plainly when the knowledge base has nothing relevant', async () => {
    const { body } = await ask({ query: 'What is the capital of Peru?' });
    expect(body.answer).toMatch(/could not find/i);
  });

  it('streams the same answer as the JSON call, readable by both SSE clients', async () => {
    const whole = (await ask({ query: QUESTION })).body;
    const url = `${parley.url}/agents/${agentId}/query`;
    const parsed = await streamAnswer(url, ws.key, { query: QUESTION });
    expect(parsed.status).toBe(200);
    expect(parsed.contentType).toMatch(/^text\/event-stream/);
    expect(parsed.events.filter((event) => event.event === 'answer').length).toBeGreaterThan(3);
    expect(parsed.answer).toBe(whole.answer);
    expect(parsed.final).toMatchObject({ answer: whole.answer, sources: whole.sources });
    expect(parsed.events.at(-1)!.data).toBe('[DONE]');

    await parley.call('PATCH', `/agents/${agentId}`, { key: ws.key, body: { visibility: 'public' } });
    try {
      const widget = await askLikeHostedWidget(url, { query: QUESTION });
      expect(widget).toMatchObject({ answer: whole.answer, attempts: 1 });
      expect(widget.response!.answer).toBe(whole.answer);
    } finally {
      await parley.call('PATCH', `/agents/${agentId}`, { key: ws.key, body: { visibility: 'private' } });
    }

    // Stored as it streamed, then completed: one agent message, whole, not marked interrupted (newest first).
    const { messages } = (await parley.call<ConversationBody>('GET', `/conversations/${parsed.final!.conversationId}`, { key: ws.key })).body;
    expect(messages.map((message) => message.from)).toEqual(['agent', 'human']);
    expect(messages[0]).toMatchObject({ id: parsed.final!.messageId, text: whole.answer });
    expect(messages[0]).not.toHaveProperty('interrupted');
  });

  it('passes every sampling setting to a remote model and streams its deltas in order', async () => {
    upstream.replies.push({ kind: 'answer', deltas: ['Twenty', ' thousand', ' bottles', '.'] });
    const before = upstream.requests.length;
    const parsed = await streamAnswer(`${parley.url}/agents/${agentId}/query`, ws.key, {
      query: QUESTION,
      modelName: 'remote',
      temperature: 0.7,
      topP: 0.9,
      presencePenalty: 0.5,
      frequencyPenalty: -0.5,
      maxTokens: 77,
      systemPrompt: 'Answer in one sentence.',
      userPrompt: 'Question: {query}\nKnowledge:\n{context}\nAgain: {query}',
    });
    expect(parsed.answer).toBe('Twenty thousand bottles.');
    expect(parsed.events.filter((event) => event.event === 'answer').map((event) => decodeURIComponent(event.data))).toEqual([
      'Twenty',
      ' thousand',
      ' bottles',
      '.',
    ]);
    const request = upstream.requests[before]!.body;
    expect(request).toMatchObject({
      model: 'fake-chat',
      temperature: 0.7,
      top_p: 0.9,
      presence_penalty: 0.5,
      frequency_penalty: -0.5,
      max_tokens: 77,
    });
    expect(request.messages[0]).toEqual({ role: 'system', content: `Answer in one sentence.\n\n${CITATION_RULES}` });
    const user = JSON.stringify(request.messages.at(-1)!.content);
    expect(user).toContain(`Question: ${QUESTION}`);
    expect(user).toContain(`Again: ${QUESTION}`);
    expect(user).toContain('20,000 bottles');
    expect(user).not.toContain('{context}');
  });

  it('uses the agent’s saved temperature unless the query overrides it, and sends the history', async () => {
    const before = upstream.requests.length;
    upstream.replies.push(GREETING, GREETING);
    const first = (await ask({ query: 'Who wrote the memo?', modelName: 'remote' })).body;
    await ask({ query: 'And when?', modelName: 'remote', conversationId: first.conversationId });
    const [one, two] = upstream.requests.slice(before).map((request) => request.body);
    expect(one!.temperature).toBe(0.2);
    expect(two!.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
  });

  it('stores the question but calls no model when the agent is switched off in the conversation', async () => {
    const first = (await ask({ query: QUESTION })).body;
    await parley.call('PATCH', `/conversations/${first.conversationId}`, { key: ws.key, body: { isAiEnabled: false } });
    const before = upstream.requests.length;
    const off = await ask({ query: 'Anyone there?', modelName: 'remote', conversationId: first.conversationId, visitorId: first.visitorId });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({
      conversationId: first.conversationId,
      visitorId: first.visitorId,
      messageId: expect.any(String),
      visitorToken: expect.any(String),
    });
    const streamed = await streamAnswer(`${parley.url}/agents/${agentId}/query`, ws.key, {
      query: 'Still there?',
      modelName: 'remote',
      conversationId: first.conversationId,
    });
    expect(streamed.events.map((event) => event.event ?? '')).toEqual(['endpoint_response', '']);
    expect(streamed.final).toMatchObject({ conversationId: first.conversationId });
    expect(upstream.requests.length).toBe(before);
    const messages = (await parley.call<ConversationBody>('GET', `/conversations/${first.conversationId}`, { key: ws.key })).body.messages;
    expect(messages[0]).toMatchObject({ from: 'human', text: 'Still there?' });
  });

  it('creates a conversation under an id the client made up; another workspace’s same id is its own conversation', async () => {
    const madeUp = `client-${Date.now()}`;
    const visitorId = `visitor-${Date.now()}`;
    const { body } = await ask({ query: QUESTION, conversationId: madeUp, visitorId });
    expect(body.conversationId).toBe(madeUp);
    const stranger = await parley.newWorkspace();
    const strangerAgent = (await parley.call<AgentBody>('POST', '/agents', { key: stranger.key, body: {} })).body.id;
    const theirs = await ask({ query: 'Where is my order?', conversationId: madeUp, visitorId }, stranger.key, strangerAgent);
    expect(theirs.status).toBe(200);
    expect(theirs.body).toMatchObject({ conversationId: madeUp, visitorId });

    const ours = (await parley.call<ConversationBody>('GET', `/conversations/${madeUp}`, { key: ws.key })).body;
    expect(ours.agent?.id).toBe(agentId);
    expect(ours.messages.map((m) => m.text)).not.toContain('Where is my order?');
    const strangers = (await parley.call<ConversationBody>('GET', `/conversations/${madeUp}`, { key: stranger.key })).body;
    expect(strangers.agent?.id).toBe(strangerAgent);
    expect(strangers.messages.map((m) => m.text)).toEqual([expect.any(String), 'Where is my order?']);
    expect(JSON.stringify(strangers)).not.toContain(QUESTION);
  });

  it('aborts the model call when the client goes away and keeps the partial answer', async () => {
    upstream.replies.push({ kind: 'answer', deltas: ['Partial', ' answer', ...Array(200).fill(' more')], delayMs: 50 });
    const abandonedBefore = upstream.abandoned;
    const controller = new AbortController();
    const conversationId = `abort-${Date.now()}`;
    const response = await fetch(`${parley.url}/agents/${agentId}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ws.key}` },
      body: JSON.stringify({ query: 'Tell me everything', modelName: 'remote', streaming: true, conversationId }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    let seen = '';
    while (!seen.includes('answer')) seen += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const deadline = Date.now() + 10_000;
    while (upstream.abandoned === abandonedBefore && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(upstream.abandoned).toBeGreaterThan(abandonedBefore);
    let messages: { from: string; text: string }[] = [];
    while (messages.length < 2 && Date.now() < deadline) {
      messages = (await parley.call<ConversationBody>('GET', `/conversations/${conversationId}`, { key: ws.key })).body.messages;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(messages[0]!.from).toBe('agent');
    expect(messages[0]!.text.startsWith('Partial')).toBe(true);
    expect(messages[0]!.text.length).toBeLessThan('Partial answer'.length + 200 * 5);
    expect(messages[0]).toMatchObject({ interrupted: true });
  });

  it('keeps the words streamed before the model failed, marked interrupted', async () => {
    upstream.replies.push({ kind: 'answer', deltas: ['The first', ' half'], cut: { error: { message: 'overloaded', type: 'server_error' } } });
    const conversationId = `failed-${Date.now()}`;
    const parsed = await streamAnswer(`${parley.url}/agents/${agentId}/query`, ws.key, { query: 'Tell me', modelName: 'remote', conversationId });
    expect(parsed.answer).toBe('The first half');
    expect(parsed.events.at(-1)!.data).toMatch(/^\[ERROR\]/);
    const { messages } = (await parley.call<ConversationBody>('GET', `/conversations/${conversationId}`, { key: ws.key })).body;
    expect(messages.filter((message) => message.from === 'agent')).toEqual([expect.objectContaining({ text: 'The first half', interrupted: true })]);
  });

  it.each([
    ['temperature above 1', { temperature: 1.5 }, 'body.temperature'],
    ['topP above 1', { topP: 1.5 }, 'body.topP'],
    ['maxTokens 0', { maxTokens: 0 }, 'body.maxTokens'],
    ['presencePenalty above 2', { presencePenalty: 2.5 }, 'body.presencePenalty'],
    ['frequencyPenalty below -2', { frequencyPenalty: -3 }, 'body.frequencyPenalty'],
    ['an empty model name', { modelName: '' }, 'body.modelName'],
    ['an unknown channel', { channel: 'fax' }, 'body.channel'],
  ])('refuses %s with 400', async (_label, extra, field) => {
    const response = await ask<ErrorBody>({ query: QUESTION, ...extra });
    expect(response.status).toBe(400);
    expect(detailFields(response.body)).toContain(field);
  });

  it('refuses a missing or blank query', async () => {
    for (const body of [{}, { query: '' }, { query: '  ' }]) expect((await ask(body)).status).toBe(400);
  });

  it('answers on a public agent without a key, and only with a key on a private one', async () => {
    expect((await ask({ query: QUESTION }, null)).status).toBe(401);
    await parley.call('PATCH', `/agents/${agentId}`, { key: ws.key, body: { visibility: 'public' } });
    try {
      const open = await ask({ query: QUESTION }, null);
      expect(open.status).toBe(200);
      expect(open.body.answer).toContain('20,000');
      const conversation = (await parley.call<ConversationBody>('GET', `/conversations/${open.body.conversationId}`, { key: ws.key })).body;
      expect(conversation.channel).toBe('website');
    } finally {
      await parley.call('PATCH', `/agents/${agentId}`, { key: ws.key, body: { visibility: 'private' } });
    }
    expect((await ask({ query: QUESTION }, null, 'no-such-agent')).status).toBe(404);
  });
});

describe.each(STORE_KINDS)('agent query quota on %s', (kind) => {
  parleyTest('answers 402 USAGE_LIMIT once the workspace used its monthly answers', async ({ startParley }) => {
    const parley = await startParley(kind, { env: { PARLEY_QUOTA_QUERIES: '2' } });
    const ws = await parley.newWorkspace();
    const agentId = (await parley.call<AgentBody>('POST', '/agents', { key: ws.key, body: {} })).body.id;
    const ask = <T = AnswerBody>() => parley.call<T>('POST', `/agents/${agentId}/query`, { key: ws.key, body: { query: 'Hello?' } });
    expect((await ask()).status).toBe(200);
    expect((await ask()).status).toBe(200);
    const refused = await ask<ErrorBody>();
    expect(refused.status).toBe(402);
    expect(refused.body.error).toBe('USAGE_LIMIT');
    const other = await parley.newWorkspace();
    const otherAgent = (await parley.call<AgentBody>('POST', '/agents', { key: other.key, body: {} })).body.id;
    expect((await parley.call('POST', `/agents/${otherAgent}/query`, { key: other.key, body: { query: 'Hi' } })).status).toBe(200);
  });
});
