import { describe, expect } from 'vitest';
import { FakeOpenAIChatServer } from '../support/fake-openai-chat-server.js';
import { waitForDatasource } from '../support/datasources.js';
import { parleyTest as it } from '../support/parley-test.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import { SHOP_HELP_PASSAGES } from '../support/shop-help-passages.js';
import { streamAnswer } from '../support/streamed-answer.js';
import type { AgentBody, AnswerBody, ConversationBody, DatasourceBody, DatastoreBody, SearchHitBody } from '../support/bodies.js';

const CANADA = {
  question: 'Do you ship to Canada?',
  answer: 'Yes: we ship to Canada with Canada Post. Delivery takes 6 to 9 working days and customs fees are included.',
  questions: ['Is delivery to Canada possible?'],
};

/** Q&A entries: the stored answer is what the agent says when a visitor asks its question, and a member's correction is one. */
describe.each(STORE_KINDS)('Q&A answers on %s', (kind) => {
  const upstream = new FakeOpenAIChatServer();
  let parley: TestParley;

  it.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind, { workers: true, env: await upstream.startAsRemoteModel() });
  });
  it.afterAll(() => upstream.stop());

  interface Desk {
    ws: Workspace;
    agentId: string;
    datastoreId: string;
  }

  async function synched(ws: Workspace, body: Record<string, unknown>): Promise<DatasourceBody> {
    const created = await parley.call<DatasourceBody>('POST', '/datasources', { key: ws.key, body });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const done = await waitForDatasource(parley, ws.key, created.body.id);
    expect(done.status).toBe('synched');
    return done;
  }

  /** A workspace whose agent answers from the shop's help passages. */
  async function helpDesk(): Promise<Desk> {
    const ws = await parley.newWorkspace();
    const datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: { name: 'help' } })).body.id;
    for (const [name, text] of Object.entries(SHOP_HELP_PASSAGES)) await synched(ws, { type: 'text', datastoreId, name, text });
    const agent = await parley.call<AgentBody>('POST', '/agents', {
      key: ws.key,
      body: { name: 'Help', tools: [{ type: 'datastore', datastoreId }] },
    });
    return { ws, agentId: agent.body.id, datastoreId };
  }

  const ask = (desk: Desk, query: string, body: Record<string, unknown> = {}) =>
    parley.call<AnswerBody>('POST', `/agents/${desk.agentId}/query`, { key: desk.ws.key, body: { query, ...body } });

  let desk: Desk;
  let entry: DatasourceBody;
  it.beforeAll(async () => {
    desk = await helpDesk();
    entry = await synched(desk.ws, { type: 'qa', datastoreId: desk.datastoreId, config: CANADA });
  });

  it('stores the entry as a datasource named after its question, searchable by its question and its answer', async () => {
    expect(entry).toMatchObject({
      type: 'qa',
      name: CANADA.question,
      config: { question: CANADA.question, answer: CANADA.answer, questions: CANADA.questions },
    });
    const listed = await parley.call<DatasourceBody[]>('GET', `/datastores/${desk.datastoreId}/datasources`, { key: desk.ws.key });
    expect(listed.body.map((datasource) => datasource.id)).toContain(entry.id);
    const search = await parley.call<SearchHitBody[]>('POST', `/datastores/${desk.datastoreId}/query`, {
      key: desk.ws.key,
      body: { query: 'customs fees Canada Post' },
    });
    expect(search.body[0]?.datasource_id).toBe(entry.id);
  });

  it('says the stored answer word for word, citing only the entry, with the built-in model', async () => {
    for (const query of ['Do you ship orders to Canada?', 'Is delivery to Canada possible?', 'do you ship to canada']) {
      const { body } = await ask(desk, query);
      expect(body.answer, query).toBe(CANADA.answer);
      expect(body.sources?.map((source) => source.datasource_id)).toEqual([entry.id]);
      const stored = await parley.call<ConversationBody>('GET', `/conversations/${body.conversationId}`, { key: desk.ws.key });
      expect(stored.body.messages.find((message) => message.from === 'agent')).toMatchObject({ text: CANADA.answer });
    }
  });

  it('says the stored answer without calling a provider model, whole and streamed', async () => {
    const calls = upstream.requests.length;
    const whole = await ask(desk, 'Can you ship to Canada?', { modelName: 'remote' });
    expect(whole.body.answer).toBe(CANADA.answer);
    expect(whole.body.sources?.map((source) => source.datasource_id)).toEqual([entry.id]);
    const streamed = await streamAnswer(`${parley.url}/agents/${desk.agentId}/query`, desk.ws.key, {
      query: 'Do you ship to Canada?',
      modelName: 'remote',
    });
    expect(streamed.answer).toBe(CANADA.answer);
    expect(streamed.final?.answer).toBe(CANADA.answer);
    expect(streamed.final?.sources?.map((source) => source.datasource_id)).toEqual([entry.id]);
    expect(upstream.requests.length).toBe(calls);
  });

  it('says the stored answer to a visitor of a public agent without a key, as the widget asks', async () => {
    const own = await helpDesk();
    await synched(own.ws, { type: 'qa', datastoreId: own.datastoreId, config: CANADA });
    expect((await parley.call('PATCH', `/agents/${own.agentId}`, { key: own.ws.key, body: { visibility: 'public' } })).status).toBe(200);
    const streamed = await streamAnswer(`${parley.url}/agents/${own.agentId}/query`, null, { query: 'Do you ship to Canada?' });
    expect(streamed.status).toBe(200);
    expect(streamed.answer).toBe(CANADA.answer);
    expect(streamed.final?.sources).toHaveLength(1);
  });

  it('does not let the entry answer another question, offline or with a provider, though it stays a passage', async () => {
    const offline = await ask(desk, 'How long does delivery to the United Kingdom take?');
    expect(offline.body.answer).not.toBe(CANADA.answer);
    expect(offline.body.sources?.map((source) => source.datasource_id)).not.toContain(entry.id);

    // Same topic, another question: shipping costs to Canada are not what the entry answers.
    upstream.replies.push({ kind: 'answer', deltas: ['Shipping to Canada costs 12 euros [1].'] });
    const remote = await ask(desk, 'How much does express shipping to Canada cost?', { modelName: 'remote' });
    expect(remote.body.answer).toBe('Shipping to Canada costs 12 euros [1].');
    expect(String(upstream.requests.at(-1)?.body.messages.at(-1)?.content)).toContain(CANADA.answer);
  });

  it('turns a wrong answer into the right one: Improve from the inbox, then the same and a similar question', async () => {
    const own = await helpDesk();
    const question = 'How many days do I have to return an item?';
    const wrong = await ask(own, question);
    expect(wrong.body.answer).toContain('30 days');
    const corrected = 'You have 60 days to return an item, since our winter policy: unworn, with its label.';
    const improved = await synched(own.ws, {
      type: 'qa',
      datastoreId: own.datastoreId,
      config: { question, answer: corrected, sourceMessageId: wrong.body.messageId },
    });
    expect(improved.config.sourceMessageId).toBe(wrong.body.messageId);
    for (const again of [question, 'How many days do I have to return items?']) {
      const right = await ask(own, again);
      expect(right.body.answer, again).toBe(corrected);
      expect(right.body.sources?.map((source) => source.datasource_id)).toEqual([improved.id]);
    }

    // Edited: the new answer is said from then on; the name follows the question.
    const edited = await parley.call<DatasourceBody>('PATCH', `/datasources/${improved.id}`, {
      key: own.ws.key,
      body: { config: { answer: 'You have 90 days to return an item.', question: 'How long do I have to return an item?' } },
    });
    expect(edited.status).toBe(200);
    expect((await waitForDatasource(parley, own.ws.key, improved.id)).name).toBe('How long do I have to return an item?');
    expect((await ask(own, 'How long do I have to return an item?')).body.answer).toBe('You have 90 days to return an item.');
  });

  it('checks the corrected message: an agent answer, of the workspace, by an agent searching the datastore', async () => {
    const own = await helpDesk();
    const answered = await ask(own, 'Do you ship to Germany?');
    const conversation = await parley.call<ConversationBody>('GET', `/conversations/${answered.body.conversationId}`, { key: own.ws.key });
    const visitorMessage = conversation.body.messages.find((message) => message.from === 'human')!;
    const body = (sourceMessageId: string, datastoreId = own.datastoreId) => ({
      type: 'qa',
      datastoreId,
      config: { question: 'Do you ship to Germany?', answer: 'Yes.', sourceMessageId },
    });
    const refused = async (key: string, request: unknown) =>
      (await parley.call<{ code: string }>('POST', '/datasources', { key, body: request })).status;

    expect(await refused(own.ws.key, body(visitorMessage.id))).toBe(400);
    expect(await refused(own.ws.key, body('no-such-message'))).toBe(404);
    const other = await parley.call<DatastoreBody>('POST', '/datastores', { key: own.ws.key, body: { name: 'elsewhere' } });
    expect(await refused(own.ws.key, body(answered.body.messageId, other.body.id))).toBe(400);
    // Another workspace may neither write into this datastore nor cite this message.
    const stranger = await parley.newWorkspace();
    expect(await refused(stranger.key, body(answered.body.messageId))).toBe(403);
    const strangerStore = await parley.call<DatastoreBody>('POST', '/datastores', { key: stranger.key, body: { name: 'theirs' } });
    expect(await refused(stranger.key, body(answered.body.messageId, strangerStore.body.id))).toBe(403);
    expect(await refused(stranger.key, { type: 'qa', datastoreId: own.datastoreId, config: { question: 'q?', answer: 'a' } })).toBe(403);
    const foreignEdit = await parley.call('PATCH', `/datasources/${entry.id}`, { key: stranger.key, body: { config: { answer: 'hijacked' } } });
    expect(foreignEdit.status).toBe(403);

    // A visitor (the widget's token) may not correct; any member of the workspace may, as they may add datasources.
    expect(await refused(answered.body.visitorToken, body(answered.body.messageId))).toBe(401);
    expect(await refused('', body(answered.body.messageId))).toBe(401);
    const member = await parley.newMember(own.ws.id, 'member');
    expect(await refused(member.accessToken, body(answered.body.messageId))).toBe(200);
  });

  it('refuses blank, oversized and malformed entries, and edits of other datasources', async () => {
    const post = (config: Record<string, unknown>) =>
      parley.call<{ code: string }>('POST', '/datasources', { key: desk.ws.key, body: { type: 'qa', datastoreId: desk.datastoreId, config } });
    expect((await post({ question: '   ', answer: 'a' })).status).toBe(400);
    expect((await post({ question: 'q?', answer: ' \n ' })).status).toBe(400);
    expect((await post({ question: 'q'.repeat(501), answer: 'a' })).status).toBe(400);
    expect((await post({ question: 'q?', answer: 'a'.repeat(10_001) })).status).toBe(400);
    expect((await post({ question: 'q?', answer: 'a', questions: [' '] })).status).toBe(400);
    expect((await post({ question: 'q?' })).status).toBe(400);
    const text = await parley.call<DatasourceBody[]>('GET', `/datastores/${desk.datastoreId}/datasources`, { key: desk.ws.key });
    const document = text.body.find((datasource) => datasource.type === 'text')!;
    expect((await parley.call('PATCH', `/datasources/${document.id}`, { key: desk.ws.key, body: { config: { answer: 'x' } } })).status).toBe(400);
  });
});
