import { describe, expect, it } from 'vitest';
import type { SignedInMember, TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import { streamAnswer } from '../support/streamed-answer.js';
import type { AgentBody, AnalyticsBody, AnswerBody, ConversationBody, ListedConversationBody, UpdateStatusResultBody } from '../support/bodies.js';

interface TabCounts {
  unresolved: { total: number };
  all: { total: number };
}

/**
 * The team's own tests in the dashboard's playground stay out of the inbox and the
 * figures unless asked for, and "human requested" counts the conversations that ever asked for a person.
 */
describe.each(STORE_KINDS)('the team’s playground conversations and the status history on %s', (kind) => {
  let parley: TestParley;
  let ws: Workspace;
  let member: SignedInMember;
  let agentId: string;
  /** P: a member's questions in the playground; D: an API client on channel dashboard; V: a visitor; M: mail. */
  const ids = { P: '', D: '', V: '', M: '' };
  let stranger: Workspace;
  let strangerPlayground: string;

  /** A question as the dashboard's playground sends it: the member's token, channel dashboard, streamed. */
  const askInPlayground = async (token: string, agent: string, query: string, conversationId?: string) => {
    const streamed = await streamAnswer(`${parley.url}/agents/${agent}/query`, token, {
      query,
      channel: 'dashboard',
      ...(conversationId === undefined ? {} : { conversationId }),
    });
    expect(streamed.status).toBe(200);
    return streamed.final!;
  };
  const askWithKey = async (key: string, query: string, channel: string) => {
    const response = await parley.call<AnswerBody>('POST', `/agents/${agentId}/query`, { key, body: { query, channel } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  };
  const get = async <T>(credential: string, path: string) => {
    const response = await parley.call<T>('GET', path, { key: credential });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  };
  const listed = async (credential: string, path: string) => (await get<ListedConversationBody[]>(credential, path)).map((item) => item.id).sort();

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind);
    ws = await parley.newWorkspace();
    member = await parley.newMember(ws.id, 'member');
    agentId = (await parley.call<AgentBody>('POST', '/agents', { key: ws.key, body: { name: 'Helper', visibility: 'public' } })).body.id;

    const playground = await askInPlayground(member.accessToken, agentId, 'Testing: what are your hours?');
    ids.P = playground.conversationId;
    expect((await askInPlayground(member.accessToken, agentId, 'Testing again', ids.P)).conversationId).toBe(ids.P);
    ids.D = (await askWithKey(ws.key, 'Sent by an integration on channel dashboard', 'dashboard')).conversationId;
    ids.M = (await askWithKey(ws.key, 'Sent by the mail connector', 'email')).conversationId;

    // A visitor asks for a person; a member takes over and resolves; the visitor writes again (reopened).
    const visitor = (await parley.call<AnswerBody>('POST', `/agents/${agentId}/query`, { key: null, body: { query: 'Can I talk to someone?' } }))
      .body;
    ids.V = visitor.conversationId;
    const requested = await parley.call('POST', `/agents/${agentId}/conversation/status`, {
      key: visitor.visitorToken,
      body: { status: 'HUMAN_REQUESTED' },
    });
    expect(requested.status).toBe(200);
    const reply = await parley.call('POST', `/conversations/${ids.V}/messages`, {
      key: member.accessToken,
      body: { text: 'Ann here, how can I help?' },
    });
    expect(reply.status).toBe(201);
    const resolved = await parley.call('PATCH', `/conversations/${ids.V}`, { key: member.accessToken, body: { status: 'RESOLVED' } });
    expect(resolved.status).toBe(200);
    const again = await parley.call('POST', `/agents/${agentId}/query`, {
      key: null,
      body: { query: 'One more thing', conversationId: ids.V, visitorId: visitor.visitorId },
    });
    expect(again.status).toBe(200);

    // The mail conversation asks for a person and is resolved in bulk.
    for (const status of ['HUMAN_REQUESTED', 'RESOLVED']) {
      const bulk = await parley.call<UpdateStatusResultBody>('POST', '/conversations/update-status?channel=mail', { key: ws.key, body: { status } });
      expect(bulk.body.count).toBe(1);
    }

    // Another workspace's playground and API conversations never show here.
    stranger = await parley.newWorkspace();
    const theirMember = await parley.newMember(stranger.id);
    const theirAgent = (await parley.call<AgentBody>('POST', '/agents', { key: stranger.key, body: { name: 'Theirs' } })).body.id;
    strangerPlayground = (await askInPlayground(theirMember.accessToken, theirAgent, 'Their test')).conversationId;
    await parley.call('POST', `/agents/${theirAgent}/query`, { key: stranger.key, body: { query: 'Their integration', channel: 'dashboard' } });
  }, 120_000);

  describe('the inbox', () => {
    it('leaves the playground’s conversations out of the list for members, and shows them with includePlayground', async () => {
      expect(await listed(member.accessToken, '/user-conversations')).toEqual([ids.D, ids.M, ids.V].sort());
      expect(await listed(member.accessToken, '/user-conversations?includePlayground=true')).toEqual([ids.D, ids.M, ids.P, ids.V].sort());
      expect(await listed(member.accessToken, '/user-conversations?channel=dashboard')).toEqual([ids.D]);
      expect(await listed(member.accessToken, '/user-conversations?channel=dashboard&includePlayground=true')).toEqual([ids.D, ids.P].sort());
      const records = await get<ListedConversationBody[]>(member.accessToken, '/user-conversations?includePlayground=true');
      expect(Object.fromEntries(records.map((record) => [record.id, record.playground]))).toEqual({
        [ids.P]: true,
        [ids.D]: false,
        [ids.V]: false,
        [ids.M]: false,
      });
    });

    it('lists an API client’s dashboard-channel conversations for its key, the playground’s only when asked', async () => {
      for (const path of ['/conversations', '/user-conversations', '/api/conversations']) {
        expect(await listed(ws.key, `${path}?channel=dashboard`)).toEqual([ids.D]);
        expect(await listed(ws.key, `${path}?channel=dashboard&includePlayground=true`)).toEqual([ids.D, ids.P].sort());
      }
    });

    it('counts the tabs without the playground’s conversations unless asked', async () => {
      const counts = await get<TabCounts>(member.accessToken, '/user-conversations/counts');
      // D and V are open, M resolved; P (open) is left out.
      expect(counts.all.total).toBe(3);
      expect(counts.unresolved.total).toBe(2);
      const withPlayground = await get<TabCounts>(member.accessToken, '/user-conversations/counts?includePlayground=true');
      expect(withPlayground.all.total).toBe(4);
      expect(withPlayground.unresolved.total).toBe(3);
    });

    it('still shows the playground its own conversation, marked as the member’s', async () => {
      const conversation = await get<ConversationBody>(member.accessToken, `/conversations/${ids.P}`);
      expect(conversation).toMatchObject({ id: ids.P, channel: 'dashboard' });
      expect(conversation.messages.filter((message) => message.from === 'human').map((message) => message.text)).toEqual([
        'Testing again',
        'Testing: what are your hours?',
      ]);
    });

    it('never shows another workspace’s conversations, playground or not', async () => {
      const ours = await listed(member.accessToken, '/user-conversations?includePlayground=true&limit=100');
      expect(ours).not.toContain(strangerPlayground);
      expect(ours).toHaveLength(4);
      expect(await listed(stranger.key, '/conversations?includePlayground=true')).toContain(strangerPlayground);
      expect(await listed(stranger.key, '/conversations')).not.toContain(strangerPlayground);
    });
  });

  describe('analytics', () => {
    it('counts the conversations that ever asked for a person, taken over and resolved since or not, without the playground', async () => {
      const report = await get<AnalyticsBody>(member.accessToken, '/analytics');
      expect(report.includePlayground).toBe(false);
      // D, V and M; V and M asked for a person; only M is still resolved (V was reopened).
      expect(report.conversations).toMatchObject({ total: 3, humanRequested: 2, resolved: 1 });
      expect(report.conversations.humanRequestedRate).toBeCloseTo(2 / 3);
      expect(report.perDay.at(-1)!.byChannel).toEqual({ dashboard: 1, mail: 1, website: 1 });
      const questions = report.knowledgeGaps.items.map((item) => item.question);
      expect(questions).not.toContain('Testing: what are your hours?');
      expect(questions).toContain('Sent by an integration on channel dashboard');
    });

    it('takes the playground’s conversations in with includePlayground', async () => {
      const report = await get<AnalyticsBody>(ws.key, '/analytics?includePlayground=true');
      expect(report.includePlayground).toBe(true);
      expect(report.conversations).toMatchObject({ total: 4, humanRequested: 2 });
      expect(report.perDay.at(-1)!.byChannel).toEqual({ dashboard: 2, mail: 1, website: 1 });
      expect(report.knowledgeGaps.items.map((item) => item.question)).toContain('Testing again');
    });

    it('offers only the channels the range’s conversations took place in, whatever the channel filter', async () => {
      expect((await get<AnalyticsBody>(member.accessToken, '/analytics')).availableChannels).toEqual(['dashboard', 'mail', 'website']);
      const onMail = await get<AnalyticsBody>(member.accessToken, '/analytics?channel=mail');
      expect(onMail.conversations.total).toBe(1);
      expect(onMail.channels).toEqual(['mail']);
      expect(onMail.availableChannels).toEqual(['dashboard', 'mail', 'website']);
    });

    it('counts another workspace’s conversations only there', async () => {
      const theirs = await get<AnalyticsBody>(stranger.key, '/analytics?includePlayground=true');
      expect(theirs.conversations).toMatchObject({ total: 2, humanRequested: 0 });
      expect(theirs.availableChannels).toEqual(['dashboard']);
      expect((await get<AnalyticsBody>(stranger.key, '/analytics')).conversations.total).toBe(1);
    });
  });

  it('changes the status in bulk only of the conversations the inbox shows, the playground’s when asked', async () => {
    const bulk = await parley.call<UpdateStatusResultBody>('POST', '/conversations/update-status', {
      key: member.accessToken,
      body: { status: 'RESOLVED' },
    });
    expect(bulk.body.count).toBe(3);
    expect((await get<ConversationBody>(member.accessToken, `/conversations/${ids.P}`)).status).toBe('UNRESOLVED');
    const withPlayground = await parley.call<UpdateStatusResultBody>(
      'POST',
      '/conversations/update-status?includePlayground=true&channel=dashboard',
      {
        key: member.accessToken,
        body: { status: 'RESOLVED' },
      },
    );
    expect(withPlayground.body.count).toBe(2);
    expect((await get<ConversationBody>(member.accessToken, `/conversations/${ids.P}`)).status).toBe('RESOLVED');
  });
});
