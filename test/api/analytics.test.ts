import { describe, expect, it } from 'vitest';
import { parleyTest } from '../support/parley-test.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import { waitForDatasource } from '../support/datasources.js';
import {
  detailFields,
  type AgentBody,
  type AnalyticsBody,
  type AnswerBody,
  type DatasourceBody,
  type DatastoreBody,
  type ErrorBody,
  type MemberBody,
} from '../support/bodies.js';

const SHOP_NOTES = 'The shop opens at 9 am and closes at 6 pm on weekdays. Refunds are accepted within 30 days of purchase, with the receipt.';

const today = () => new Date().toISOString().slice(0, 10);

describe.each(STORE_KINDS)('GET /analytics on %s', (kind) => {
  let parley: TestParley;
  let ws: Workspace;
  let shop: AgentBody;
  let other: AgentBody;
  let datastoreId: string;
  let datasourceId: string;
  /** When the seeding started and ended: member replies came within it. */
  let seededFrom: number;
  let seededIn: number;

  const analytics = async (query = '', key = ws.key) => {
    const response = await parley.call<AnalyticsBody>('GET', `/analytics${query}`, { key });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  };

  const ask = async (agentId: string, query: string, channel: string, conversationId?: string) => {
    const response = await parley.call<AnswerBody>('POST', `/agents/${agentId}/query`, {
      key: ws.key,
      body: { query, channel, ...(conversationId === undefined ? {} : { conversationId }) },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  };

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind, { workers: true });
    ws = await parley.newWorkspace();
    datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: { name: 'Shop' } })).body.id;
    const upload = await parley.call<DatasourceBody>('POST', '/datasources', {
      key: ws.key,
      body: { type: 'text', datastoreId, name: 'Shop notes.txt', text: SHOP_NOTES },
    });
    datasourceId = upload.body.id;
    expect((await waitForDatasource(parley, ws.key, datasourceId)).status).toBe('synched');
    shop = (
      await parley.call<AgentBody>('POST', '/agents', { key: ws.key, body: { name: 'Shop agent', tools: [{ type: 'datastore', datastoreId }] } })
    ).body;
    other = (await parley.call<AgentBody>('POST', '/agents', { key: ws.key, body: { name: 'Other agent' } })).body;
    await parley.newMember(ws.id, 'admin');
    const [member] = (await parley.call<MemberBody[]>('GET', '/members', { key: ws.key })).body;

    seededFrom = Date.now();
    // 1: answered from the notes, rated good, then resolved.
    const hours = await ask(shop.id, 'When does the shop open?', 'website');
    await parley.call('POST', `/messages/${hours.messageId}/eval`, { key: ws.key, body: { eval: 'GOOD' } });
    await parley.call('PATCH', `/conversations/${hours.conversationId}`, { key: ws.key, body: { status: 'RESOLVED' } });
    // 2: a question the notes do not answer, asked twice in two wordings, rated bad; a member replies.
    const mars = await ask(shop.id, 'Do you ship to Mars?', 'website');
    await parley.call('POST', `/messages/${mars.messageId}/eval`, { key: ws.key, body: { eval: 'BAD' } });
    await ask(shop.id, 'do you ship to MARS', 'website', mars.conversationId);
    const reply = await parley.call('POST', `/conversations/${mars.conversationId}/messages`, {
      key: ws.key,
      body: { text: 'Not yet, sorry!', memberId: member!.id },
    });
    expect(reply.status).toBe(201);
    await parley.call('PATCH', `/conversations/${mars.conversationId}`, { key: ws.key, body: { status: 'HUMAN_REQUESTED' } });
    // 3: another unanswered question, over the API channel; a member replies too.
    const bitcoin = await ask(shop.id, 'Can I pay with bitcoin?', 'api');
    await parley.call('POST', `/conversations/${bitcoin.conversationId}/messages`, {
      key: ws.key,
      body: { text: 'Cards only.', memberId: member!.id },
    });
    // 4: the agent without datastores: nothing to answer from.
    await ask(other.id, 'Do you ship to Mars?', 'api');
    seededIn = Date.now() - seededFrom;

    // Another workspace with the same questions: none of it shows.
    const stranger = await parley.newWorkspace();
    const theirs = (await parley.call<AgentBody>('POST', '/agents', { key: stranger.key, body: { name: 'Theirs' } })).body;
    await parley.call('POST', `/agents/${theirs.id}/query`, { key: stranger.key, body: { query: 'Do you ship to Mars?' } });
  }, 180_000);

  it('gives the figures of the seeded conversations', async () => {
    const report = await analytics();
    expect(report).toMatchObject({ to: today(), agentId: null, channel: null });
    expect(report.conversations).toMatchObject({
      total: 4,
      resolved: 1,
      humanRequested: 1,
      resolutionRate: 0.25,
      humanRequestedRate: 0.25,
      // 2 + 5 (two questions, two answers, a reply) + 3 + 2; the notice left when the member took over is not counted.
      messages: 12,
      messagesPerConversation: 3,
      humanReplied: 2,
    });
    const median = report.conversations.medianSecondsToFirstHumanReply;
    expect(median).toBeGreaterThan(0);
    expect(median! * 1000).toBeLessThan(seededIn);
    expect(report.ratings).toEqual({ good: 1, bad: 1 });
    expect(report.topDatasources).toEqual([{ datasourceId, name: 'Shop notes.txt', datastoreId, citations: expect.any(Number) }]);
    expect(report.topDatasources[0]!.citations).toBeGreaterThanOrEqual(1);
    expect(report.channels).toEqual(['api', 'website']);
    expect(report.perDay).toHaveLength(30);
    expect(report.perDay.at(-1)).toEqual({ date: today(), total: 4, byChannel: { api: 2, website: 2 } });
    expect(report.perDay.slice(0, -1).every((day) => day.total === 0 && Object.keys(day.byChannel).length === 0)).toBe(true);
  });

  it('lists the questions the agents could not answer, a repeat once with its count, with where to add a document', async () => {
    const { knowledgeGaps } = await analytics();
    expect(knowledgeGaps.total).toBe(3);
    expect(knowledgeGaps.items.map(({ question, count, agent }) => ({ question, count, agent }))).toEqual([
      { question: 'do you ship to MARS', count: 2, agent: { id: shop.id, name: 'Shop agent', datastoreIds: [datastoreId] } },
      // Equal counts: the latest first.
      { question: 'Do you ship to Mars?', count: 1, agent: { id: other.id, name: 'Other agent', datastoreIds: [] } },
      { question: 'Can I pay with bitcoin?', count: 1, agent: { id: shop.id, name: 'Shop agent', datastoreIds: [datastoreId] } },
    ]);
    const [mars] = knowledgeGaps.items;
    expect(Date.parse(mars!.firstAskedAt)).toBeLessThanOrEqual(Date.parse(mars!.lastAskedAt));
    expect(knowledgeGaps.items.map((item) => item.question)).not.toContain('When does the shop open?');
  });

  it('narrows to one agent and one channel', async () => {
    const ofShop = await analytics(`?agentId=${shop.id}`);
    expect(ofShop.agentId).toBe(shop.id);
    expect(ofShop.conversations).toMatchObject({ total: 3, resolved: 1, humanRequested: 1, messages: 10, humanReplied: 2 });
    expect(ofShop.knowledgeGaps.items.map((item) => item.question)).toEqual(['do you ship to MARS', 'Can I pay with bitcoin?']);

    const overApi = await analytics('?channel=api');
    expect(overApi.channel).toBe('api');
    expect(overApi.conversations).toMatchObject({ total: 2, resolved: 0, humanReplied: 1 });
    expect(overApi.ratings).toEqual({ good: 0, bad: 0 });
    expect(overApi.knowledgeGaps.items.map((item) => item.question)).toEqual(['Do you ship to Mars?', 'Can I pay with bitcoin?']);
    expect(overApi.perDay.at(-1)?.byChannel).toEqual({ api: 2 });
  });

  it('takes a range of days, every day listed', async () => {
    const report = await analytics(`?from=2030-01-01&to=2030-01-07`);
    expect(report.perDay.map((day) => day.date)).toEqual([1, 2, 3, 4, 5, 6, 7].map((day) => `2030-01-0${day}`));
    expect(report.conversations).toMatchObject({
      total: 0,
      resolutionRate: null,
      messagesPerConversation: null,
      medianSecondsToFirstHumanReply: null,
    });
    expect(report.knowledgeGaps).toEqual({ total: 0, items: [] });
    expect(report.topDatasources).toEqual([]);
    expect((await analytics(`?from=${today()}&to=${today()}`)).conversations.total).toBe(4);
  });

  it('refuses a range that is backwards, too long or no date, and an unknown channel, naming the field', async () => {
    const refused = async (query: string) => {
      const response = await parley.call<ErrorBody>('GET', `/analytics${query}`, { key: ws.key });
      expect(response.status, JSON.stringify(response.body)).toBe(400);
      expect(response.body.error).toBe('INVALID_REQUEST');
      return detailFields(response.body);
    };
    expect(await refused('?from=2030-01-08&to=2030-01-07')).toEqual(['querystring.from']);
    expect(await refused('?from=2029-01-01&to=2030-01-07')).toEqual(['querystring.from']);
    expect(await refused('?from=2030-02-30')).toEqual(['querystring.from']);
    expect(await refused('?to=yesterday')).toEqual(['querystring.to']);
    expect(await refused('?channel=fax')).toEqual(['querystring.channel']);
    // A year, leap day included, is allowed.
    expect((await analytics('?from=2028-01-01&to=2028-12-31')).perDay).toHaveLength(366);
  });

  it('answers 403 for another workspace’s agent and 404 for none', async () => {
    const stranger = await parley.newWorkspace();
    const forbidden = await parley.call<ErrorBody>('GET', `/analytics?agentId=${shop.id}`, { key: stranger.key });
    expect([forbidden.status, forbidden.body.error]).toEqual([403, 'FORBIDDEN']);
    const missing = await parley.call<ErrorBody>('GET', '/analytics?agentId=no-such-agent', { key: ws.key });
    expect([missing.status, missing.body.error]).toEqual([404, 'NOT_FOUND']);
    expect((await analytics('', stranger.key)).conversations.total).toBe(0);
  });

  it('is open to members with their access token', async () => {
    const member = await parley.newMember(ws.id, 'member');
    expect((await analytics('', member.accessToken)).conversations.total).toBe(4);
  });
});
