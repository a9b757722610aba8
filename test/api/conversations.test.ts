import { describe, expect, it } from 'vitest';
import { AI_SWITCHED_OFF_NOTICE } from '../../src/domain/handoff.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import { seedConversation } from './conversations-seed.js';
import {
  detailFields,
  type AgentBody,
  type ConversationBody,
  type ErrorBody,
  type PatchedConversationBody,
  type RatedMessageBody,
  type TranscriptBody,
  type UpdateStatusResultBody,
} from '../support/bodies.js';

describe.each(STORE_KINDS)('conversations API on %s', (kind) => {
  let parley: TestParley;
  let ws: Workspace;
  let agent: AgentBody;

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind);
    ws = await parley.newWorkspace();
    agent = (await parley.call<AgentBody>('POST', '/agents', { key: ws.key, body: { name: 'Helper', iconUrl: 'https://example.com/i.png' } })).body;
  });

  const call = <T>(method: string, path: string, body?: unknown) => parley.call<T>(method, path, { key: ws.key, body });

  const seedChat = () =>
    seedConversation(parley, ws.id, {
      agentId: agent.id,
      channel: 'website',
      contact: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phoneNumber: '+44 20 7946 0000' },
      messages: [
        ['human', 'How do I reset my password?'],
        ['agent', 'Use the reset link on the sign-in page.'],
        ['human', 'Thanks!'],
      ],
    });

  describe('GET /conversations/:id', () => {
    it('answers the whole record: all messages newest first, the agent and the participants', async () => {
      const seeded = await seedChat();
      const { status, body } = await call<ConversationBody>('GET', `/conversations/${seeded.id}`);
      expect(status).toBe(200);
      expect(body).toMatchObject({
        id: seeded.id,
        title: 'How do I reset my password?',
        status: 'UNRESOLVED',
        channel: 'website',
        isAiEnabled: true,
        metadata: { isFormSubmitted: false },
        agent: { id: agent.id, name: 'Helper', iconUrl: 'https://example.com/i.png' },
      });
      expect(Date.parse(body.createdAt)).not.toBeNaN();
      expect(Date.parse(body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(body.createdAt));
      // Newest first, as the hosted service answered: its integrations read messages[0] as the latest.
      expect(body.messages.map((m) => [m.from, m.text])).toEqual([
        ['human', 'Thanks!'],
        ['agent', 'Use the reset link on the sign-in page.'],
        ['human', 'How do I reset my password?'],
      ]);
      expect(body.messages.map((m) => m.id)).toEqual([...seeded.messageIds].reverse());
      for (const message of body.messages) {
        expect(Object.keys(message).sort()).toEqual(['attachments', 'createdAt', 'eval', 'from', 'id', 'read', 'sender', 'sources', 'text']);
        expect(message.eval).toBeNull();
      }
      expect(body.messages.map((m) => m.sender)).toEqual([
        { type: 'visitor', id: seeded.visitorId, name: 'Ada Lovelace' },
        { type: 'agent', id: agent.id, name: 'Helper' },
        { type: 'visitor', id: seeded.visitorId, name: 'Ada Lovelace' },
      ]);
      expect(body).toMatchObject({ assignee: null, unreadCount: 2 });
      const times = body.messages.map((m) => Date.parse(m.createdAt));
      expect([...times].sort((x, y) => y - x)).toEqual(times);

      const contactId = body.participantsContacts[0]?.id;
      expect(body.participantsContacts).toEqual([
        { id: contactId, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phoneNumber: '+44 20 7946 0000' },
      ]);
      expect(body.participantsVisitors).toEqual([{ id: seeded.visitorId, contact: { id: contactId, firstName: 'Ada', lastName: 'Lovelace' } }]);
      expect(body.participants).toEqual([
        { id: seeded.visitorId, type: 'visitor' },
        { id: contactId, type: 'contact' },
      ]);
      expect(body.participantsUsers).toEqual([]);
      expect(body).not.toHaveProperty('workspaceId');
    });

    it('answers 404 for an unknown id and 403 for another workspace’s conversation', async () => {
      const missing = await call<ErrorBody>('GET', '/conversations/does-not-exist');
      expect(missing.status).toBe(404);
      expect(missing.body.error).toBe('NOT_FOUND');

      const other = await parley.newWorkspace();
      const theirs = await seedConversation(parley, other.id, { messages: [['human', 'secret']] });
      const refused = await call<ErrorBody>('GET', `/conversations/${theirs.id}`);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('FORBIDDEN');
      expect(JSON.stringify(refused.body)).not.toContain('secret');
    });

    it('keeps the conversation when its agent is deleted, with agent null', async () => {
      const doomed = (await call<AgentBody>('POST', '/agents', { name: 'Temporary' })).body;
      const seeded = await seedConversation(parley, ws.id, { agentId: doomed.id, messages: [['human', 'hi']] });
      expect((await call('DELETE', `/agents/${doomed.id}`)).status).toBe(200);
      const { status, body } = await call<ConversationBody>('GET', `/conversations/${seeded.id}`);
      expect(status).toBe(200);
      expect(body.agent).toBeNull();
      expect(body.messages).toHaveLength(1);
    });
  });

  describe('PATCH /conversations/:conversationId', () => {
    it('switches the agent off with a system message, once, and answers the spec’s shape', async () => {
      const seeded = await seedChat();
      const { status, body } = await call<PatchedConversationBody>('PATCH', `/conversations/${seeded.id}`, { isAiEnabled: false });
      expect(status).toBe(200);
      expect(Object.keys(body).sort()).toEqual(
        ['agent', 'assignee', 'channel', 'createdAt', 'id', 'isAiEnabled', 'lead', 'messages', 'metadata', 'status', 'updatedAt', 'workspace'].sort(),
      );
      expect(body).toMatchObject({
        id: seeded.id,
        isAiEnabled: false,
        status: 'UNRESOLVED',
        channel: 'website',
        agent: { id: agent.id, name: 'Helper', iconUrl: 'https://example.com/i.png' },
        lead: { email: 'ada@example.com', phoneNumber: '+44 20 7946 0000' },
        metadata: { isFormSubmitted: false },
        workspace: { id: ws.id, organization: { memberships: [] } },
      });
      expect(body.messages).toHaveLength(4);
      const notice = body.messages.at(-1);
      expect(notice).toMatchObject({ from: 'system', text: AI_SWITCHED_OFF_NOTICE, conversationId: seeded.id });
      for (const message of body.messages) expect(message.conversationId).toBe(seeded.id);

      // Already off: no second notice; back on: no notice either.
      expect((await call<PatchedConversationBody>('PATCH', `/conversations/${seeded.id}`, { isAiEnabled: false })).body.messages).toHaveLength(4);
      const on = await call<PatchedConversationBody>('PATCH', `/conversations/${seeded.id}`, { isAiEnabled: true });
      expect(on.body.isAiEnabled).toBe(true);
      expect(on.body.messages).toHaveLength(4);
      expect((await call<ConversationBody>('GET', `/conversations/${seeded.id}`)).body.messages[0]?.text).toBe(AI_SWITCHED_OFF_NOTICE);
    });

    it('merges metadata into what is stored, isFormSubmitted false unless set', async () => {
      const seeded = await seedChat();
      const first = await call<PatchedConversationBody>('PATCH', `/conversations/${seeded.id}`, { metadata: { plan: 'pro', tags: ['a'] } });
      expect(first.body.metadata).toEqual({ isFormSubmitted: false, plan: 'pro', tags: ['a'] });
      const second = await call<PatchedConversationBody>('PATCH', `/conversations/${seeded.id}`, { metadata: { tags: ['b'], seat: 3 } });
      expect(second.body.metadata).toEqual({ isFormSubmitted: false, plan: 'pro', tags: ['b'], seat: 3 });
      const submitted = await call<PatchedConversationBody>('PATCH', `/conversations/${seeded.id}`, { metadata: { isFormSubmitted: true } });
      expect(submitted.body.metadata).toEqual({ isFormSubmitted: true, plan: 'pro', tags: ['b'], seat: 3 });
      expect((await call<ConversationBody>('GET', `/conversations/${seeded.id}`)).body.metadata).toEqual(submitted.body.metadata);
      expect(Date.parse(submitted.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(first.body.updatedAt));
    });

    it('sets the status, and lead is null without a contact', async () => {
      const seeded = await seedConversation(parley, ws.id, { messages: [['human', 'hello']] });
      const { body } = await call<PatchedConversationBody>('PATCH', `/conversations/${seeded.id}`, { status: 'HUMAN_REQUESTED' });
      expect(body).toMatchObject({ status: 'HUMAN_REQUESTED', isAiEnabled: true, lead: null, agent: null });
      expect((await call<ConversationBody>('GET', `/conversations/${seeded.id}`)).body.status).toBe('HUMAN_REQUESTED');
    });

    it.each([
      ['an unknown status', { status: 'CLOSED' }, 'body.status'],
      ['isAiEnabled as text', { isAiEnabled: 'no' }, 'body.isAiEnabled'],
      ['metadata not an object', { metadata: 'x' }, 'body.metadata'],
    ])('refuses %s with 400', async (_label, body, field) => {
      const seeded = await seedConversation(parley, ws.id);
      const response = await call<ErrorBody>('PATCH', `/conversations/${seeded.id}`, body);
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('INVALID_REQUEST');
      expect(detailFields(response.body)).toContain(field);
    });

    it('answers 404 for an unknown conversation', async () => {
      const response = await call<ErrorBody>('PATCH', '/conversations/nope', { isAiEnabled: false });
      expect(response.status).toBe(404);
      expect(response.body.error).toBe('NOT_FOUND');
    });
  });

  describe('POST /conversations/update-status', () => {
    /** A fresh workspace with conversations across agents and channels, and one next door. */
    async function scene() {
      const mine = await parley.newWorkspace();
      const a = (await parley.call<AgentBody>('POST', '/agents', { key: mine.key, body: { name: 'A' } })).body.id;
      const b = (await parley.call<AgentBody>('POST', '/agents', { key: mine.key, body: { name: 'B' } })).body.id;
      const ids = {
        aWebsite1: (await seedConversation(parley, mine.id, { agentId: a, channel: 'website' })).id,
        aWebsite2: (await seedConversation(parley, mine.id, { agentId: a, channel: 'website' })).id,
        aApi: (await seedConversation(parley, mine.id, { agentId: a, channel: 'api' })).id,
        bWebsite: (await seedConversation(parley, mine.id, { agentId: b, channel: 'website' })).id,
        mail: (await seedConversation(parley, mine.id, { channel: 'email' })).id,
      };
      const neighbour = await parley.newWorkspace();
      const theirs = (await seedConversation(parley, neighbour.id, { channel: 'website' })).id;
      const statusOf = async (id: string, key = mine.key) =>
        (await parley.call<ConversationBody>('GET', `/conversations/${id}`, { key })).body.status;
      const resolved = async () => {
        const resolvedIds: string[] = [];
        for (const [name, id] of Object.entries(ids)) if ((await statusOf(id)) === 'RESOLVED') resolvedIds.push(name);
        return resolvedIds.sort();
      };
      return { mine, a, b, ids, neighbour, theirs, statusOf, resolved };
    }

    const updateStatus = <T = UpdateStatusResultBody>(key: string, query: string, status: string) =>
      parley.call<T>('POST', `/conversations/update-status${query}`, { key, body: { status } });

    it('updates only the conversations of the channel', async () => {
      const s = await scene();
      const { status, body } = await updateStatus(s.mine.key, '?channel=website', 'RESOLVED');
      expect(status).toBe(200);
      expect(body).toEqual({ count: 3, message: expect.any(String) });
      expect(await s.resolved()).toEqual(['aWebsite1', 'aWebsite2', 'bWebsite']);
      expect(await s.statusOf(s.theirs, s.neighbour.key)).toBe('UNRESOLVED');
    });

    it('updates only the agent’s conversations', async () => {
      const s = await scene();
      expect((await updateStatus(s.mine.key, `?agentId=${s.a}`, 'RESOLVED')).body.count).toBe(3);
      expect(await s.resolved()).toEqual(['aApi', 'aWebsite1', 'aWebsite2']);
    });

    it('combines channel and agent', async () => {
      const s = await scene();
      expect((await updateStatus(s.mine.key, `?channel=website&agentId=${s.a}`, 'RESOLVED')).body.count).toBe(2);
      expect(await s.resolved()).toEqual(['aWebsite1', 'aWebsite2']);
    });

    it('updates every conversation of the workspace without a filter, and no other workspace’s', async () => {
      const s = await scene();
      expect((await updateStatus(s.mine.key, '', 'RESOLVED')).body.count).toBe(5);
      expect(await s.resolved()).toEqual(Object.keys(s.ids).sort());
      expect(await s.statusOf(s.theirs, s.neighbour.key)).toBe('UNRESOLVED');
    });

    it('reads channel email as mail', async () => {
      const s = await scene();
      expect((await updateStatus(s.mine.key, '?channel=email', 'HUMAN_REQUESTED')).body.count).toBe(1);
      expect(await s.statusOf(s.ids.mail)).toBe('HUMAN_REQUESTED');
      expect((await updateStatus(s.mine.key, '?channel=mail', 'RESOLVED')).body.count).toBe(1);
    });

    it('refuses a bad status or channel with 400, and another workspace’s agent with 403', async () => {
      const s = await scene();
      for (const [query, status, field] of [
        ['', 'DONE', 'body.status'],
        ['?channel=fax', 'RESOLVED', 'querystring.channel'],
      ] as const) {
        const response = await updateStatus<ErrorBody>(s.mine.key, query, status);
        expect(response.status).toBe(400);
        expect(detailFields(response.body)).toContain(field);
      }
      const missing = await parley.call('POST', '/conversations/update-status', { key: s.mine.key, body: {} });
      expect(missing.status).toBe(400);
      const foreign = await updateStatus(s.neighbour.key, `?agentId=${s.a}`, 'RESOLVED');
      expect(foreign.status).toBe(403);
      expect(await s.resolved()).toEqual([]);
    });
  });

  describe('GET /user-conversations/export/:id', () => {
    it('exports JSON in the spec’s shape with readable timestamps and sender names', async () => {
      const seeded = await seedChat();
      await call('PATCH', `/conversations/${seeded.id}`, { isAiEnabled: false });
      const { status, headers, body } = await call<TranscriptBody>('GET', `/user-conversations/export/${seeded.id}?format=json`);
      expect(status).toBe(200);
      expect(headers.get('content-type')).toMatch(/^application\/json/);
      expect(body).toMatchObject({
        id: seeded.id,
        title: 'How do I reset my password?',
        contactName: 'Ada Lovelace',
        phoneNumber: '+44 20 7946 0000',
        channel: 'website',
        agentName: 'Helper',
      });
      expect(Object.keys(body).sort()).toEqual(['agentName', 'channel', 'contactName', 'createdAt', 'id', 'messages', 'phoneNumber', 'title'].sort());
      expect(body.messages.map((m) => m.senderName)).toEqual(['Ada Lovelace', 'Helper', 'Ada Lovelace', 'System']);
      for (const message of body.messages) {
        expect(Object.keys(message).sort()).toEqual(
          ['attachments', 'formattedTimestamp', 'from', 'id', 'senderName', 'sources', 'text', 'timestamp'].sort(),
        );
        expect(new Date(message.timestamp).toISOString()).toBe(message.timestamp);
        expect(message.formattedTimestamp).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC$/);
        const date = new Date(message.timestamp);
        expect(message.formattedTimestamp).toContain(`${date.getUTCFullYear()}, ${String(date.getUTCHours()).padStart(2, '0')}:`);
      }
      // JSON is the default format.
      expect((await call('GET', `/user-conversations/export/${seeded.id}`)).body).toEqual(body);
    });

    it('names an anonymous sender "Visitor"', async () => {
      const seeded = await seedConversation(parley, ws.id, { messages: [['human', 'hi']] });
      const { body } = await call<TranscriptBody>('GET', `/user-conversations/export/${seeded.id}?format=json`);
      expect(body).toMatchObject({ contactName: null, phoneNumber: null, agentName: null });
      expect(body.messages[0]?.senderName).toBe('Visitor');
    });

    it('exports a standalone printable HTML page with every text escaped', async () => {
      const sneaky = (await call<AgentBody>('POST', '/agents', { name: '<img src=x onerror=alert(2)>' })).body;
      const seeded = await seedConversation(parley, ws.id, {
        agentId: sneaky.id,
        contact: { firstName: '<b>Eve</b>', email: 'eve@example.com' },
        messages: [
          ['human', '<script>alert(1)</script> & "quotes"'],
          ['agent', 'Fine </div><iframe src="x">'],
        ],
      });
      const response = await fetch(`${parley.url}/user-conversations/export/${seeded.id}?format=html`, {
        headers: { authorization: `Bearer ${ws.key}` },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await response.text();
      expect(html).toMatch(/^<!doctype html>/i);
      expect(html).toContain('@media print');
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;');
      expect(html).toContain('&lt;img src=x onerror=alert(2)&gt;');
      expect(html).toContain('&lt;b&gt;Eve&lt;/b&gt;');
      expect(html).toContain('&lt;iframe src=&quot;x&quot;&gt;');
      expect(html).not.toMatch(/<script|<img|<iframe|<b>/i);
    });

    it('refuses an unknown format with 400 and an unknown id with 404', async () => {
      const seeded = await seedConversation(parley, ws.id);
      expect((await call('GET', `/user-conversations/export/${seeded.id}?format=pdf`)).status).toBe(400);
      expect((await call('GET', '/user-conversations/export/nope?format=html')).status).toBe(404);
    });
  });

  describe('POST /messages/:id/eval', () => {
    it('rates a message GOOD or BAD and clears the rating with null', async () => {
      const seeded = await seedChat();
      const answerId = seeded.messageIds[1]!;
      for (const value of ['GOOD', 'BAD', null]) {
        const { status, body } = await call<RatedMessageBody>('POST', `/messages/${answerId}/eval`, { eval: value });
        expect(status).toBe(200);
        expect(body).toMatchObject({ id: answerId, eval: value, from: 'agent', conversationId: seeded.id });
        const detail = (await call<ConversationBody>('GET', `/conversations/${seeded.id}`)).body;
        expect(detail.messages.find((m) => m.id === answerId)?.eval).toBe(value);
      }
    });

    it.each([
      ['no eval', {}],
      ['an unknown value', { eval: 'MEH' }],
      ['a lower-case value', { eval: 'good' }],
    ])('refuses %s with 400', async (_label, body) => {
      const seeded = await seedChat();
      const response = await call<ErrorBody>('POST', `/messages/${seeded.messageIds[1]}/eval`, body);
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('INVALID_REQUEST');
      expect(detailFields(response.body)).toContain('body.eval');
    });

    it('answers 404 for an unknown message and 403 for another workspace’s', async () => {
      expect((await call('POST', '/messages/nope/eval', { eval: 'GOOD' })).status).toBe(404);
      const other = await parley.newWorkspace();
      const theirs = await seedConversation(parley, other.id, { messages: [['agent', 'theirs']] });
      const refused = await call('POST', `/messages/${theirs.messageIds[0]}/eval`, { eval: 'BAD' });
      expect(refused.status).toBe(403);
      expect((await parley.core.store.messages.find(other.id, theirs.messageIds[0]!))?.eval).toBeNull();
    });
  });
});
