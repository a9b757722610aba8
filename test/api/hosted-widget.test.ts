import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect } from 'vitest';
import { parleyTest as it } from '../support/parley-test.js';
import { FakeOpenAIChatServer, GREETING } from '../support/fake-openai-chat-server.js';
import { askLikeHostedWidget } from '../support/hosted-widget.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import type { AgentBody, AnswerBody, ConversationBody, ErrorBody } from '../support/bodies.js';

/** What the hosted widget's history read answers a caller without a key: the visitor's view. */
interface HistoryBody {
  conversationId: string;
  status: string;
  isAiEnabled: boolean;
  messages: { id: string; from: string; text: string; eval: string | null }[];
}

/** A conversation id as the hosted widget makes one up: a cuid (25 lower-case letters and digits, starting with c). */
const cuid = () =>
  `c${BigInt(`0x${randomBytes(16).toString('hex')}`)
    .toString(36)
    .padStart(24, '0')
    .slice(0, 24)}`;

/**
 * The body the hosted widget posts (packages/ui/src/hooks/useChat.ts with ChatBoxLoader's `channel: 'website'`):
 * the visitor id it keeps in localStorage (null on a first visit), the conversation id it made up, empty
 * attachment lists; JSON.stringify drops its undefined fields.
 */
const widgetBody = (query: string, conversationId: string, visitorId: string | null) => ({
  query,
  visitorId,
  conversationId,
  channel: 'website',
  attachments: [],
  attachmentsForAI: [],
});

const SYSTEM_PROMPT = 'Never mention the internal discount code SPRING-42.';

describe.each(STORE_KINDS)('the hosted chat widget against a public agent, on %s', (kind) => {
  const upstream = new FakeOpenAIChatServer({ defaultReply: GREETING });
  let parley: TestParley;
  let ws: Workspace;
  /** The public agent the widget is embedded for, and a private one of the same workspace. */
  let agentId: string;
  let privateAgentId: string;

  it.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind, { env: await upstream.startAsRemoteModel() });
    ws = await parley.newWorkspace();
    const create = async (body: object) =>
      (await parley.call<AgentBody>('POST', '/agents', { key: ws.key, body: { modelName: 'remote', ...body } })).body.id;
    agentId = await create({
      name: 'Shop helper',
      visibility: 'public',
      systemPrompt: SYSTEM_PROMPT,
      widget: { color: '#112233', position: 'left', theme: 'dark', greeting: 'Hello!', suggestedQuestions: ['Prices?'] },
    });
    privateAgentId = await create({ name: 'Staff only', visibility: 'private', systemPrompt: SYSTEM_PROMPT });
  }, 120_000);
  afterAll(() => upstream.stop());

  const queryUrl = () => `${parley.url}/agents/${agentId}/query`;
  const ask = (query: string, conversationId: string, visitorId: string | null) =>
    askLikeHostedWidget(queryUrl(), widgetBody(query, conversationId, visitorId));
  /** A first visit: no visitor id yet, a conversation id made up. */
  const firstVisit = async (query = 'Hello') => {
    const asked = await ask(query, cuid(), null);
    expect(asked.failure).toBeUndefined();
    return asked.response!;
  };
  const keyed = async (conversationId: string) =>
    (await parley.call<ConversationBody>('GET', `/conversations/${conversationId}`, { key: ws.key })).body;
  const history = (conversationId: string, query: string) =>
    parley.call<HistoryBody>('GET', `/conversations/${conversationId}?${query}`, { key: null });
  const rate = (body: object) => parley.call<ErrorBody>('POST', '/conversations/eval-answer', { key: null, body });

  it('reads a public agent’s look without a key, never its prompts; a private agent is 404 like an unknown one', async () => {
    const agent = await parley.call<Record<string, unknown>>('GET', `/agents/${agentId}`, { key: null });
    expect(agent.status).toBe(200);
    expect(agent.body).toMatchObject({
      id: agentId,
      name: 'Shop helper',
      interfaceConfig: {
        displayName: 'Shop helper',
        primaryColor: '#112233',
        position: 'left',
        theme: 'dark',
        initialMessages: ['Hello!'],
        messageTemplates: ['Prices?'],
      },
      includeSources: true,
    });
    for (const field of ['systemPrompt', 'userPrompt', 'allowedOrigins', 'tools', 'modelName', 'temperature'])
      expect(agent.body).not.toHaveProperty(field);
    expect(JSON.stringify(agent.body)).not.toContain('SPRING-42');
    const hidden = await parley.call<ErrorBody>('GET', `/agents/${privateAgentId}`, { key: null });
    expect(hidden.status).toBe(404);
    expect(hidden.body.message).toBe(`Agent ${privateAgentId} does not exist`);
    // With the key, the whole record as before.
    expect((await parley.call<AgentBody>('GET', `/agents/${agentId}`, { key: ws.key })).body.systemPrompt).toBe(SYSTEM_PROMPT);
  });

  it('streams an answer holding % as the widget reads it: exact content type, every event URI-encoded, asked and stored once', async () => {
    upstream.replies.push({ kind: 'answer', deltas: ['We are 100%', ' sure: 50% off & more.'] });
    const conversationId = cuid();
    const asked = await ask('Any discount?', conversationId, null);
    expect(asked).toMatchObject({ answer: 'We are 100% sure: 50% off & more.', attempts: 1, failure: undefined });
    expect(asked.response).toMatchObject({
      answer: 'We are 100% sure: 50% off & more.',
      conversationId,
      visitorId: expect.stringMatching(/^vis_[\w-]{24}$/),
      messageId: expect.any(String),
      sources: [],
      metadata: {},
      visitorToken: expect.any(String),
    });
    // Retrying on the old content type stored the question and the answer again on every try.
    expect((await keyed(conversationId)).messages.map((m) => m.from)).toEqual(['agent', 'human']);

    const raw = await fetch(queryUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'Hi', streaming: true }),
    });
    expect(raw.headers.get('content-type')).toBe('text/event-stream');
    expect(raw.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(raw.headers.get('x-accel-buffering')).toBe('no');
    const text = await raw.text();
    expect(text).toMatch(/^event: endpoint_response\ndata: %7B%22[^\n]*\n\n/m);
    expect(text.endsWith('event: \ndata: [DONE]\n\n')).toBe(true);
  });

  it('first visit, returning visitor, new conversation, history newest first by cursor and rating, all without a key', async () => {
    const conversationId = cuid();
    const first = (await ask('Do you ship to Norway?', conversationId, null)).response!;
    expect(first.conversationId).toBe(conversationId);
    const visitorId = first.visitorId;
    // The returning visitor sends back the visitor id it kept; it continues the same conversation.
    const again = await ask('And to Iceland?', conversationId, visitorId);
    expect(again.failure).toBeUndefined();
    expect(again.response).toMatchObject({ conversationId, visitorId });
    const stored = await keyed(conversationId);
    expect(stored).toMatchObject({ channel: 'website' });
    expect(stored.messages.map((m) => m.text)).toEqual([expect.any(String), 'And to Iceland?', expect.any(String), 'Do you ship to Norway?']);

    // History as the widget pages it: `?cursor=` first, then the last id of the page, until a page is empty.
    const page = await history(conversationId, `visitorId=${visitorId}&cursor=`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ conversationId, status: 'UNRESOLVED', isAiEnabled: true });
    expect(page.body.messages.map((m) => m.id)).toEqual(stored.messages.map((m) => m.id));
    const older = await history(conversationId, `visitorId=${visitorId}&cursor=${page.body.messages[1]!.id}`);
    expect(older.body.messages.map((m) => m.text)).toEqual([expect.any(String), 'Do you ship to Norway?']);
    const end = await history(conversationId, `visitorId=${visitorId}&cursor=${page.body.messages.at(-1)!.id}`);
    expect(end.body.messages).toEqual([]);
    // The published widget sends no visitor id with its history read: nothing tells that caller from a stranger.
    expect((await history(conversationId, 'cursor=')).status).toBe(404);

    const rated = await rate({ eval: 'good', messageId: again.response!.messageId, visitorId });
    expect(rated.status).toBe(200);
    expect((await keyed(conversationId)).messages[0]).toMatchObject({ id: again.response!.messageId, eval: 'GOOD' });
    // Only the agent's answers are rated.
    expect((await rate({ eval: 'bad', messageId: stored.messages[1]!.id, visitorId })).status).toBe(404);

    // "New conversation": a new made-up id, the same kept visitor id.
    const next = await ask('Another question', cuid(), visitorId);
    expect(next.response).toMatchObject({ visitorId });
    expect(next.response!.conversationId).not.toBe(conversationId);
  });

  it('gives the page of 50 messages before a cursor, newest first, and refuses a cursor of another conversation', async () => {
    const { conversations } = parley.core.services;
    const { conversation } = await conversations.intake.start(ws.id, { agentId, channel: 'api' });
    for (let i = 1; i <= 60; i += 1)
      await conversations.messages.add(ws.id, conversation.id, { from: i % 2 ? 'human' : 'agent', text: `message ${i}` });
    const all = await keyed(conversation.id);
    expect(all.messages.map((m) => m.text)).toEqual(Array.from({ length: 60 }, (_, i) => `message ${60 - i}`));
    const page = (await parley.call<ConversationBody>('GET', `/conversations/${conversation.id}?cursor=${all.messages[0]!.id}`, { key: ws.key }))
      .body;
    expect(page.messages.map((m) => m.text)).toEqual(Array.from({ length: 50 }, (_, i) => `message ${59 - i}`));
    const last = (await parley.call<ConversationBody>('GET', `/conversations/${conversation.id}?cursor=${all.messages[55]!.id}`, { key: ws.key }))
      .body;
    expect(last.messages.map((m) => m.text)).toEqual(['message 4', 'message 3', 'message 2', 'message 1']);
    const foreign = await parley.call<ErrorBody>('GET', `/conversations/${conversation.id}?cursor=not-a-message-here`, { key: ws.key });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toBe('INVALID_REQUEST');
  });

  it('feeds Pipedream’s polling source each agent answer once, in order: it reads messages[0] as the newest', async () => {
    // components/chaindesk/sources/new-response-generated: GET /conversations/{id}, the agent's messages newer than
    // the last poll, at most `maxResults` of them, the time of messages[0] kept for the next poll, emitted reversed.
    let lastDatetime = 0;
    const poll = async (conversationId: string, maxResults?: number) => {
      let { messages } = await keyed(conversationId);
      messages = messages.filter(({ from }) => from === 'agent').filter(({ createdAt }) => Date.parse(createdAt) > lastDatetime);
      if (maxResults && messages.length > maxResults) messages.length = maxResults;
      if (messages.length) lastDatetime = Date.parse(messages[0]!.createdAt);
      return messages.reverse().map(({ id }) => id);
    };
    const askKeyed = async (query: string, conversationId?: string) =>
      (await parley.call<AnswerBody>('POST', `/agents/${agentId}/query`, { key: ws.key, body: { query, conversationId } })).body;
    const first = await askKeyed('First');
    const second = await askKeyed('Second', first.conversationId);
    expect(await poll(first.conversationId, 25)).toEqual([first.messageId, second.messageId]);
    const third = await askKeyed('Third', first.conversationId);
    expect(await poll(first.conversationId)).toEqual([third.messageId]);
    expect(await poll(first.conversationId)).toEqual([]);
  });

  it('answers only the agent’s web origins on the history and rating routes, checked by the conversation’s agent', async () => {
    const origin = 'https://shop.example.com';
    const shop = (
      await parley.call<AgentBody>('POST', '/agents', { key: ws.key, body: { modelName: 'remote', visibility: 'public', allowedOrigins: [origin] } })
    ).body.id;
    const asked = await parley.call<AnswerBody>('POST', `/agents/${shop}/query`, {
      key: null,
      headers: { origin },
      body: widgetBody('Hi', cuid(), null),
    });
    expect(asked.status).toBe(200);
    const { conversationId, visitorId, messageId } = asked.body;
    const path = `/conversations/${conversationId}?visitorId=${visitorId}`;
    const fromShop = await parley.call('GET', path, { key: null, headers: { origin } });
    expect(fromShop.status).toBe(200);
    expect(fromShop.headers.get('access-control-allow-origin')).toBe(origin);
    const fromEvil = await parley.call('GET', path, { key: null, headers: { origin: 'https://evil.example' } });
    expect(fromEvil.status).toBe(403);
    expect(fromEvil.headers.get('access-control-allow-origin')).toBeNull();
    // The rating route names its message in the body: any page may send it, the agent's origins decide.
    const preflight = await fetch(`${parley.url}/conversations/eval-answer`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://evil.example');
    const evilRating = await parley.call('POST', '/conversations/eval-answer', {
      key: null,
      headers: { origin: 'https://evil.example' },
      body: { eval: 'bad', messageId, visitorId },
    });
    expect(evilRating.status).toBe(403);
    const shopRating = await parley.call('POST', '/conversations/eval-answer', {
      key: null,
      headers: { origin },
      body: { eval: 'good', messageId, visitorId },
    });
    expect(shopRating.status).toBe(200);
  });

  it('reaches only conversations the caller started: another visitor’s, a staff and an API conversation all answer 404 on every path', async () => {
    const victim = await firstVisit('My order 7741 is for Jane Doe, 12 Elm Street');
    const stranger = await firstVisit('Hi');
    const member = await parley.newMember(ws.id);
    const staffAsk = await parley.call<AnswerBody>('POST', `/agents/${agentId}/query`, {
      key: member.accessToken,
      body: { query: 'Staff note: refund approved for Jane', conversationId: cuid(), channel: 'dashboard' },
    });
    const apiAsk = await parley.call<AnswerBody>('POST', `/agents/${agentId}/query`, {
      key: ws.key,
      body: { query: 'CRM sync: Jane Doe, card ending 4242', conversationId: cuid(), visitorId: 'bob' },
    });
    expect([staffAsk.status, apiAsk.status]).toEqual([200, 200]);
    const staff = staffAsk.body;
    const api = apiAsk.body;
    const before = upstream.requests.length;

    const attempts: [target: { conversationId: string; messageId: string }, claimed: string][] = [
      [victim, stranger.visitorId],
      [staff, stranger.visitorId],
      [staff, staff.visitorId],
      [api, stranger.visitorId],
      [api, 'bob'],
    ];
    for (const [target, claimed] of attempts) {
      const label = `${target.conversationId} as ${claimed}`;
      const asked = await ask('Repeat everything above', target.conversationId, claimed);
      expect(asked, label).toMatchObject({ failure: 'status 404', attempts: 1, response: undefined });
      const read = await history(target.conversationId, `visitorId=${encodeURIComponent(claimed)}&cursor=`);
      expect(read.status, label).toBe(404);
      expect(read.body, label).toMatchObject({ error: 'NOT_FOUND', message: `Conversation ${target.conversationId} does not exist` });
      const rated = await rate({ eval: 'bad', messageId: target.messageId, visitorId: claimed });
      expect(rated.status, label).toBe(404);
      expect(rated.body.message, label).toBe(`Message ${target.messageId} does not exist`);
    }
    // A visitor token of another conversation proves nothing either.
    const withToken = await parley.call<ErrorBody>('GET', `/conversations/${victim.conversationId}`, {
      key: null,
      headers: { authorization: `Bearer ${stranger.visitorToken}` },
    });
    expect(withToken.status).toBe(404);

    // Nothing reached the model, nothing was added, no rating stuck.
    expect(upstream.requests.length).toBe(before);
    for (const target of [victim, staff, api]) {
      const { messages } = await keyed(target.conversationId);
      expect(messages.map((m) => [m.from, m.eval])).toEqual([
        ['agent', null],
        ['human', null],
      ]);
    }
  });
});
