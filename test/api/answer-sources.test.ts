import { describe, expect } from 'vitest';
import { NOT_FOUND_ANSWER } from '../../src/llm/chat/compose-extractive-answer.js';
import { parseContextBlock } from '../../src/llm/prompt/context-block.js';
import { FakeOpenAIChatServer, type RecordedChatRequest } from '../support/fake-openai-chat-server.js';
import { waitForDatasource } from '../support/datasources.js';
import { parleyTest as it } from '../support/parley-test.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import { SHOP_HELP_PASSAGES as DOCUMENTS } from '../support/shop-help-passages.js';
import { streamAnswer } from '../support/streamed-answer.js';
import type { AgentBody, AnalyticsBody, AnswerBody, ConversationBody, DatasourceBody, DatastoreBody, TranscriptBody } from '../support/bodies.js';

const QUESTION = 'Do you ship to the United Kingdom, and how long does delivery take?';

/** An answer's sources are the passages it cites, numbered as it cites them, in every form it takes. */
describe.each(STORE_KINDS)('sources of an answer on %s', (kind) => {
  const upstream = new FakeOpenAIChatServer();
  let parley: TestParley;

  it.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind, { workers: true, env: await upstream.startAsRemoteModel() });
  });
  it.afterAll(() => upstream.stop());

  /** A workspace holding the four documents and an agent answering from them. */
  async function helpDesk(): Promise<{ ws: Workspace; agentId: string }> {
    const ws = await parley.newWorkspace();
    const datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: { name: 'help' } })).body.id;
    for (const [name, text] of Object.entries(DOCUMENTS)) {
      const created = await parley.call<DatasourceBody>('POST', '/datasources', { key: ws.key, body: { type: 'text', datastoreId, name, text } });
      expect((await waitForDatasource(parley, ws.key, created.body.id)).status).toBe('synched');
    }
    const agent = await parley.call<AgentBody>('POST', '/agents', {
      key: ws.key,
      body: { name: 'Help', tools: [{ type: 'datastore', datastoreId }] },
    });
    return { ws, agentId: agent.body.id };
  }

  /** The sources named in the prompt of a request to the provider, by their number there. */
  const promptSources = (request: RecordedChatRequest | undefined) =>
    parseContextBlock(String(request?.body.messages.at(-1)?.content))?.passages.map((passage) => passage.source) ?? [];

  let desk: { ws: Workspace; agentId: string };
  it.beforeAll(async () => {
    desk = await helpDesk();
  });

  const ask = (body: Record<string, unknown>, { ws, agentId } = desk) =>
    parley.call<AnswerBody>('POST', `/agents/${agentId}/query`, { key: ws.key, body: { query: QUESTION, ...body } });
  const storedAnswer = async (conversationId: string, ws = desk.ws) =>
    (await parley.call<ConversationBody>('GET', `/conversations/${conversationId}`, { key: ws.key })).body.messages[0]!;

  it('lists only the passage a provider cites, numbered 1, alike in the JSON answer, the stream and the stored message', async () => {
    // The model cites the second of four passages and writes its own list of sources anyway.
    const deltas = ['We ship to the United Kingdom;', ' delivery takes three to five working days [', '2].', '\n\nSources: Ducks.txt; Novel.txt'];
    const expected = 'We ship to the United Kingdom; delivery takes three to five working days [1].';

    upstream.replies.push({ kind: 'answer', deltas });
    const whole = await ask({ modelName: 'remote' });
    const passages = promptSources(upstream.requests.at(-1));
    expect(passages).toHaveLength(4);
    expect(whole.status).toBe(200);
    expect(whole.body.answer).toBe(expected);
    expect(whole.body.sources?.map((source) => source.datasource_name)).toEqual([passages[1]]);
    expect(whole.body.sources?.[0]?.text).toBe(DOCUMENTS[passages[1]!]);

    upstream.replies.push({ kind: 'answer', deltas });
    const streamed = await streamAnswer(`${parley.url}/agents/${desk.agentId}/query`, desk.ws.key, { query: QUESTION, modelName: 'remote' });
    expect(promptSources(upstream.requests.at(-1))).toEqual(passages);
    expect(streamed.answer).toBe(expected);
    expect(streamed.final?.answer).toBe(expected);
    expect(streamed.final?.sources).toEqual(whole.body.sources);

    for (const answer of [whole.body, streamed.final!]) {
      expect(await storedAnswer(answer.conversationId)).toMatchObject({ text: expected, sources: whole.body.sources });
    }

    // The conversation's export lists the one source too, numbered, as text in the HTML page.
    const exported = `/user-conversations/export/${whole.body.conversationId}`;
    const json = await parley.call<TranscriptBody>('GET', `${exported}?format=json`, { key: desk.ws.key });
    expect(json.body.messages.find((message) => message.from === 'agent')).toMatchObject({
      text: expected,
      sources: [{ name: passages[1], url: null, pageNumber: null }],
    });
    const html = await fetch(`${parley.url}${exported}?format=html`, { headers: { authorization: `Bearer ${desk.ws.key}` } });
    expect(await html.text()).toContain(`<ol class="sources"><li>${passages[1]}</li></ol>`);
  });

  it('gives a provider answer that cites nothing the top passage as its one source', async () => {
    upstream.replies.push({ kind: 'answer', deltas: ['Yes, we ship to the United Kingdom.'] });
    const { body } = await ask({ modelName: 'remote' });
    expect(body.answer).toBe('Yes, we ship to the United Kingdom.');
    expect(body.sources?.map((source) => source.datasource_name)).toEqual([promptSources(upstream.requests.at(-1))[0]]);
  });

  it('carries no sources on an answer that found nothing, from the built-in model or from a provider', async () => {
    const offline = await ask({ query: 'What is the capital of Peru?' });
    expect(offline.body.answer).toBe(NOT_FOUND_ANSWER);
    expect(offline.body.sources).toEqual([]);

    upstream.replies.push({ kind: 'answer', deltas: [NOT_FOUND_ANSWER] });
    const streamed = await streamAnswer(`${parley.url}/agents/${desk.agentId}/query`, desk.ws.key, {
      query: 'Do you sell gift cards?',
      modelName: 'remote',
    });
    expect(streamed.final).toMatchObject({ answer: NOT_FOUND_ANSWER, sources: [] });
    for (const answer of [offline.body, streamed.final!]) expect((await storedAnswer(answer.conversationId)).sources).toEqual([]);
  });

  it('counts only the cited passages among the datasources cited most', async () => {
    const own = await helpDesk();
    const cited: string[] = [];
    for (const deltas of [['Three to five days [2].'], ['Within 30 days [3], and faulty items [2].']]) {
      upstream.replies.push({ kind: 'answer', deltas });
      expect((await ask({ modelName: 'remote' }, own)).status).toBe(200);
      const passages = promptSources(upstream.requests.at(-1));
      cited.push(...[...deltas.join('').matchAll(/\[(\d)\]/g)].map((match) => passages[Number(match[1]) - 1]!));
    }
    const { body } = await parley.call<AnalyticsBody>('GET', '/analytics', { key: own.ws.key });
    const counts = new Map<string, number>();
    for (const name of cited) counts.set(name, (counts.get(name) ?? 0) + 1);
    const expected = [...counts].map(([name, citations]) => ({ name, citations })).sort((a, b) => b.citations - a.citations);
    expect(expected.map((entry) => entry.citations)).toEqual([2, 1]);
    expect(body.topDatasources.map(({ name, citations }) => ({ name, citations }))).toEqual(expected);
  });
});
