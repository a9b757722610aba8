import { sql } from 'kysely';
import { describe, expect } from 'vitest';
import { connectBare } from '../support/migrations.js';
import type { LabelBody, LabelRefBody } from '../../src/contract/labels.js';
import type { SavedReplyBody } from '../../src/contract/saved-replies.js';
import type { VisitorTranscriptBody } from '../../src/contract/visitor-conversation.js';
import type { SignedInMember, TestParley, Workspace } from '../support/parley.js';
import { parleyTest as it } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import { EventDispatcher } from '../../src/events/event-dispatcher.js';
import { seedConversation } from './conversations-seed.js';
import { follow } from '../support/visitor-stream.js';
import type { AgentBody, AnswerBody, ConversationBody, ErrorBody, ListedConversationBody, MessageBody } from '../support/bodies.js';

type Caller = SignedInMember | Workspace;

describe.each(STORE_KINDS)('the inbox basics on %s', (kind) => {
  let parley: TestParley;
  let ws: Workspace;
  let other: Workspace;
  let agentId: string;
  let owner: SignedInMember;
  let admin: SignedInMember;
  let member: SignedInMember;

  it.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind);
    ws = await parley.newWorkspace();
    other = await parley.newWorkspace();
    agentId = (await parley.call<AgentBody>('POST', '/agents', { key: ws.key, body: { name: 'Concierge', visibility: 'public' } })).body.id;
    owner = await parley.newMember(ws.id, 'owner');
    admin = await parley.newMember(ws.id, 'admin');
    member = await parley.newMember(ws.id, 'member');
  });

  const keyOf = (who: Caller) => ('accessToken' in who ? who.accessToken : who.key);
  const call = <T>(who: Caller, method: string, path: string, body?: unknown) => parley.call<T>(method, path, { key: keyOf(who), body });
  const detail = async (id: string, who: Caller = ws) => (await call<ConversationBody>(who, 'GET', `/conversations/${id}`)).body;
  const listed = async (query: string, who: Caller = ws) => (await call<ListedConversationBody[]>(who, 'GET', `/user-conversations?${query}`)).body;

  describe('saved replies', () => {
    it('any member, in person or by key, saves, lists by shortcut, changes and deletes them', async () => {
      const made: SavedReplyBody[] = [];
      for (const [who, shortcut] of [
        [member, 'refund'],
        [admin, 'hello'],
        [owner, 'address'],
        [ws, 'bye-bye-2'],
      ] as const) {
        const created = await call<SavedReplyBody>(who, 'POST', '/saved-replies', {
          shortcut,
          title: ` ${shortcut} title `,
          text: `Text of ${shortcut}`,
        });
        expect(created.status).toBe(200);
        expect(created.body).toMatchObject({ shortcut, title: `${shortcut} title`, text: `Text of ${shortcut}` });
        expect(created.body).not.toHaveProperty('workspaceId');
        made.push(created.body);
      }
      const list = await call<SavedReplyBody[]>(member, 'GET', '/saved-replies');
      expect(list.body.map((reply) => reply.shortcut)).toEqual(['address', 'bye-bye-2', 'hello', 'refund']);

      const changed = await call<SavedReplyBody>(member, 'PATCH', `/saved-replies/${made[1]!.id}`, { shortcut: 'hi', text: 'Hi there!' });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({ id: made[1]!.id, shortcut: 'hi', title: 'hello title', text: 'Hi there!' });

      const deleted = await call<SavedReplyBody>(member, 'DELETE', `/saved-replies/${made[3]!.id}`);
      expect(deleted.status).toBe(200);
      expect((await call<SavedReplyBody[]>(ws, 'GET', '/saved-replies')).body.map((reply) => reply.shortcut)).toEqual(['address', 'hi', 'refund']);
      expect((await call<ErrorBody>(ws, 'DELETE', `/saved-replies/${made[3]!.id}`)).body.error).toBe('NOT_FOUND');
    });

    it('refuses a bad shortcut, a taken one, empty or too long text, and an empty change', async () => {
      const post = (body: unknown) => call<ErrorBody>(member, 'POST', '/saved-replies', body);
      for (const shortcut of ['', 'Has-Caps', 'with space', 'x'.repeat(41), '/slash', 'émoji']) {
        const refused = await post({ shortcut, title: 'T', text: 'Text' });
        expect(refused.status, shortcut).toBe(400);
        expect(refused.body.error).toBe('INVALID_REQUEST');
      }
      expect((await post({ shortcut: 'long', title: 'T', text: 'x'.repeat(5_001) })).body.error).toBe('INVALID_REQUEST');
      expect((await post({ shortcut: 'blank', title: 'T', text: '   ' })).body.error).toBe('INVALID_REQUEST');
      expect((await post({ shortcut: 'max', title: 'T', text: 'x'.repeat(5_000) })).status).toBe(200);
      const taken = await post({ shortcut: 'max', title: 'Again', text: 'Again' });
      expect(taken.status).toBe(409);
      expect(taken.body.error).toBe('CONFLICT');
      const id = (await call<SavedReplyBody[]>(ws, 'GET', '/saved-replies')).body.find((reply) => reply.shortcut === 'max')!.id;
      expect((await call<ErrorBody>(ws, 'PATCH', `/saved-replies/${id}`, {})).body.error).toBe('INVALID_REQUEST');
      expect((await call<ErrorBody>(ws, 'PATCH', `/saved-replies/${id}`, { shortcut: 'refund' })).status).toBe(409);
    });

    it('keeps them to their workspace: another workspace lists none and reaches none', async () => {
      const mine = (await call<SavedReplyBody>(ws, 'POST', '/saved-replies', { shortcut: 'secret', title: 'S', text: 'Only ours' })).body;
      expect((await call<SavedReplyBody[]>(other, 'GET', '/saved-replies')).body).toEqual([]);
      // The same shortcut is free in another workspace.
      expect((await call(other, 'POST', '/saved-replies', { shortcut: 'secret', title: 'S', text: 'Theirs' })).status).toBe(200);
      for (const [method, body] of [
        ['PATCH', { text: 'stolen' }],
        ['DELETE', undefined],
      ] as const) {
        const refused = await call<ErrorBody>(other, method, `/saved-replies/${mine.id}`, body);
        expect(refused.status).toBe(403);
        expect(refused.body.error).toBe('FORBIDDEN');
      }
      expect((await call<ErrorBody>(ws, 'PATCH', '/saved-replies/no-such-reply', { text: 'x' })).status).toBe(404);
      expect((await call<SavedReplyBody[]>(ws, 'GET', '/saved-replies')).body.find((reply) => reply.id === mine.id)?.text).toBe('Only ours');
    });
  });

  describe('labels', () => {
    it('are made, renamed and recoloured by any member; names are unique; colours are #rrggbb', async () => {
      const vip = await call<LabelBody>(member, 'POST', '/labels', { name: ' VIP ', color: '#FFAA00' });
      expect(vip.status).toBe(200);
      expect(vip.body).toMatchObject({ name: 'VIP', color: '#ffaa00' });
      expect((await call<LabelBody>(ws, 'POST', '/labels', { name: 'Plain' })).body.color).toBe('#6b7280');
      expect((await call<ErrorBody>(admin, 'POST', '/labels', { name: 'VIP' })).body.error).toBe('CONFLICT');
      for (const body of [{ name: '' }, { name: 'x'.repeat(51) }, { name: 'Bad', color: 'red' }, { name: 'Bad', color: '#12345' }]) {
        expect((await call<ErrorBody>(ws, 'POST', '/labels', body)).body.error).toBe('INVALID_REQUEST');
      }
      const renamed = await call<LabelBody>(owner, 'PATCH', `/labels/${vip.body.id}`, { name: 'VIP customer', color: '#00aa00' });
      expect(renamed.body).toMatchObject({ id: vip.body.id, name: 'VIP customer', color: '#00aa00' });
      expect((await call<LabelBody[]>(ws, 'GET', '/labels')).body.map((label) => label.name)).toEqual(['Plain', 'VIP customer']);
    });

    it('go on conversations one by one and in bulk, show in the list and the thread, and filter the list', async () => {
      const billing = (await call<LabelBody>(ws, 'POST', '/labels', { name: 'Billing', color: '#0000ff' })).body;
      const urgent = (await call<LabelBody>(ws, 'POST', '/labels', { name: 'Urgent', color: '#ff0000' })).body;
      const seeded = await Promise.all(
        ['My invoice is wrong', 'Where is my parcel?', 'Refund me'].map((text) =>
          seedConversation(parley, ws.id, { agentId, messages: [['human', text]] }),
        ),
      );
      const [first, second, third] = seeded.map((conversation) => conversation.id) as [string, string, string];

      const put = await call<LabelRefBody[]>(member, 'POST', `/conversations/${first}/labels`, { labelIds: [urgent.id, billing.id] });
      expect(put.status).toBe(200);
      expect(put.body.map((label) => label.name)).toEqual(['Billing', 'Urgent']);
      // Twice is once.
      expect((await call<LabelRefBody[]>(ws, 'POST', `/conversations/${first}/labels`, { labelIds: [billing.id] })).body).toHaveLength(2);

      const bulk = await call<{ added: number; removed: number }>(admin, 'POST', '/conversations/bulk-labels', {
        conversationIds: [first, second, third],
        add: [billing.id],
        remove: [urgent.id],
      });
      expect(bulk.body).toEqual({ added: 2, removed: 1 });

      expect((await detail(first)).labels).toEqual([{ id: billing.id, name: 'Billing', color: '#0000ff' }]);
      const filtered = await listed(`label=${billing.id}`);
      expect(filtered.map((conversation) => conversation.id).sort()).toEqual([first, second, third].sort());
      expect(filtered.every((conversation) => conversation.labels.some((label) => label.id === billing.id))).toBe(true);
      const publicList = (await call<ListedConversationBody[]>(ws, 'GET', `/conversations?label=${billing.id}&simplified=true`)).body;
      expect(publicList).toHaveLength(3);
      const counts = await call<{ all: { total: number } }>(ws, 'GET', `/user-conversations/counts?label=${billing.id}`);
      expect(counts.body.all.total).toBe(3);

      const off = await call<LabelRefBody[]>(member, 'DELETE', `/conversations/${second}/labels/${billing.id}`);
      expect(off.body).toEqual([]);
      expect((await listed(`label=${billing.id}`)).map((conversation) => conversation.id).sort()).toEqual([first, third].sort());
      // The other filters still narrow with it.
      expect(await listed(`label=${billing.id}&search=parcel`)).toEqual([]);

      // A deleted label leaves the conversations it was on.
      await call(ws, 'DELETE', `/labels/${billing.id}`);
      expect((await detail(first)).labels).toEqual([]);
      expect((await call<ErrorBody>(ws, 'GET', `/user-conversations?label=${billing.id}`)).status).toBe(404);
    });

    it('refuses bulk requests without labels and another workspace’s labels, conversations and filters', async () => {
      const ours = (await call<LabelBody>(ws, 'POST', '/labels', { name: 'Ours' })).body;
      const theirs = (await call<LabelBody>(other, 'POST', '/labels', { name: 'Theirs' })).body;
      const conversation = await seedConversation(parley, ws.id, { agentId, messages: [['human', 'Hello']] });
      const theirConversation = await seedConversation(parley, other.id, { messages: [['human', 'Hello']] });

      expect((await call<ErrorBody>(ws, 'POST', '/conversations/bulk-labels', { conversationIds: [conversation.id] })).body.error).toBe(
        'INVALID_REQUEST',
      );
      const foreignLabel = await call<ErrorBody>(ws, 'POST', `/conversations/${conversation.id}/labels`, { labelIds: [theirs.id] });
      expect(foreignLabel.status).toBe(403);
      const foreignConversation = await call<ErrorBody>(ws, 'POST', '/conversations/bulk-labels', {
        conversationIds: [conversation.id, theirConversation.id],
        add: [ours.id],
      });
      expect(foreignConversation.status).toBe(403);
      // Nothing changed, not even on the workspace's own conversation.
      expect((await detail(conversation.id)).labels).toEqual([]);
      expect((await call<ErrorBody>(other, 'GET', `/user-conversations?label=${ours.id}`)).status).toBe(403);
      expect((await call<ErrorBody>(other, 'DELETE', `/conversations/${theirConversation.id}/labels/${ours.id}`)).status).toBe(403);
      expect((await call<ErrorBody>(ws, 'POST', `/conversations/${conversation.id}/labels`, { labelIds: ['nope'] })).status).toBe(404);
      expect((await call<ErrorBody>(ws, 'POST', `/conversations/${conversation.id}/labels`, { labelIds: [] })).body.error).toBe('INVALID_REQUEST');
    });
  });

  describe('private notes', () => {
    it('are the team’s alone: no status, unread, take-over or title, never shown to the visitor, never in an answer or an export', async () => {
      const asked = await parley.call<AnswerBody>('POST', `/agents/${agentId}/query`, { key: null, body: { query: 'Do you ship to Norway?' } });
      const { conversationId, visitorId, visitorToken } = asked.body;
      await call(ws, 'PATCH', `/conversations/${conversationId}`, { status: 'RESOLVED' });
      const before = await detail(conversationId);

      const note = await call<MessageBody & { conversationId: string }>(member, 'POST', `/conversations/${conversationId}/notes`, {
        text: '  Customer is a reseller; check the contract  ',
      });
      expect(note.status).toBe(201);
      expect(note.body).toMatchObject({
        text: 'Customer is a reseller; check the contract',
        from: 'human',
        private: true,
        read: true,
        conversationId,
        sender: { type: 'user', id: member.memberId },
      });

      const after = await detail(conversationId);
      expect(after).toMatchObject({
        status: 'RESOLVED',
        isAiEnabled: true,
        assignee: null,
        unreadCount: before.unreadCount,
        title: 'Do you ship to Norway?',
      });
      expect(after.messages.find((message) => message.id === note.body.id)).toMatchObject({ private: true });
      expect(after.messages.filter((message) => message.id !== note.body.id).every((message) => message.private === undefined)).toBe(true);
      const latest = (await listed('fullConversation=true&status=RESOLVED')).find((conversation) => conversation.id === conversationId);
      expect(latest?.messages.find((message) => message.id === note.body.id)?.private).toBe(true);

      // The visitor's views: the hosted widget's history, the widget's transcript.
      const history = await parley.call<VisitorTranscriptBody>('GET', `/conversations/${conversationId}?visitorId=${visitorId}`, { key: null });
      expect(history.status).toBe(200);
      expect(history.body.messages.map((message) => message.id)).not.toContain(note.body.id);
      expect(history.body.messages.length).toBeGreaterThan(0);
      const transcript = await parley.call<VisitorTranscriptBody>('GET', `/agents/${agentId}/conversation`, { key: visitorToken });
      expect(transcript.body.messages.map((message) => message.text)).not.toContain('Customer is a reseller; check the contract');

      // What an answer is composed from, and the export a visitor may be sent.
      const history2 = await parley.core.services.conversations.views.messages(ws.id, conversationId);
      expect(history2.map((message) => message.id)).not.toContain(note.body.id);
      const exported = await call<{ messages: { text: string }[] }>(ws, 'GET', `/user-conversations/export/${conversationId}?format=json`);
      expect(exported.body.messages.map((message) => message.text)).not.toContain('Customer is a reseller; check the contract');

      // The event says so, for a channel's sender to skip it.
      const events = await parley.core.store.outbox.list({ workspaceId: ws.id });
      const created = events.find((event) => event.type === 'message.created' && JSON.stringify(event.payload).includes(note.body.id));
      expect(created?.payload).toMatchObject({ conversationId, message: { id: note.body.id, private: true } });
      const others = events.filter((event) => event.type === 'message.created' && !JSON.stringify(event.payload).includes(note.body.id));
      expect(others.every((event) => !('private' in (event.payload as { message: object }).message))).toBe(true);
    });

    it('never reach the visitor’s live stream', async () => {
      const asked = await parley.call<AnswerBody>('POST', `/agents/${agentId}/query`, { key: null, body: { query: 'Is the shop open today?' } });
      const stream = await follow(`${parley.url}/agents/${agentId}/conversation/events`, asked.body.visitorToken);
      try {
        await call(member, 'POST', `/conversations/${asked.body.conversationId}/notes`, { text: 'Closed for stocktaking, keep it quiet' });
        await call(member, 'POST', `/conversations/${asked.body.conversationId}/messages`, { text: 'Yes, until six.', takeOver: false });
        const frames = await stream.frames.waitFor(1, 10_000);
        expect(frames.map((frame) => frame.data.text)).toEqual(['Yes, until six.']);
      } finally {
        stream.close();
      }
    });

    it('never reach a webhook, nor the messages a status event (and its e-mail) carries', async () => {
      const team = await parley.newWorkspace();
      const endpoint = (
        await call<{ id: string }>(team, 'POST', '/webhooks', {
          url: 'http://127.0.0.1:9/hook',
          events: ['message.created', 'conversation-resolved'],
        })
      ).body;
      const writer = await parley.newMember(team.id, 'member');
      const { id } = await seedConversation(parley, team.id, { messages: [['human', 'Where is my parcel?']] });
      const note = (await call<MessageBody>(writer, 'POST', `/conversations/${id}/notes`, { text: 'Lost by the carrier, do not say so' })).body;
      await call(writer, 'POST', `/conversations/${id}/messages`, { text: 'It is on its way!', takeOver: false });
      await call(writer, 'PATCH', `/conversations/${id}`, { status: 'RESOLVED' });
      const dispatcher = new EventDispatcher(parley.core.store, {
        mailEnabled: false,
        maxAttempts: 1,
        pollMs: 1000,
        batchSize: 100,
        retentionMs: 60_000,
        onQueued: () => undefined,
        onError: () => undefined,
      });
      await dispatcher.drain();

      const events = await parley.core.store.outbox.list({ workspaceId: team.id });
      const noteEvent = events.find((event) => JSON.stringify(event.payload).includes(note.id))!;
      const delivered = await parley.core.store.deliveries.list(team.id, { endpointId: endpoint.id, limit: 100 });
      expect(delivered.map((delivery) => delivery.eventType).sort()).toEqual(['conversation-resolved', 'message.created', 'message.created']);
      expect(delivered.map((delivery) => delivery.eventId)).not.toContain(noteEvent.id);
      expect(delivered.map((delivery) => delivery.body).join('\n')).not.toContain('Lost by the carrier');
      const resolved = events.find((event) => event.type === 'conversation-resolved')!;
      expect(JSON.stringify(resolved.payload)).toContain('It is on its way!');
      expect(JSON.stringify(resolved.payload)).not.toContain('Lost by the carrier');
    });

    it('a key writes one in a member’s name, and must name the member', async () => {
      const { id } = await seedConversation(parley, ws.id, { agentId, messages: [['human', 'Hi']] });
      const unnamed = await call<ErrorBody>(ws, 'POST', `/conversations/${id}/notes`, { text: 'By a key' });
      expect(unnamed.status).toBe(400);
      expect(unnamed.body.details?.[0]?.field).toBe('body.memberId');
      const named = await call<MessageBody>(ws, 'POST', `/conversations/${id}/notes`, { text: 'By a key', memberId: admin.memberId });
      expect(named.body).toMatchObject({ private: true, sender: { type: 'user', id: admin.memberId } });
      expect((await call<ErrorBody>(member, 'POST', `/conversations/${id}/notes`, { text: '  ' })).body.error).toBe('INVALID_REQUEST');
      const foreign = await call<ErrorBody>(other, 'POST', `/conversations/${id}/notes`, { text: 'Planted' });
      expect(foreign.status).toBe(403);
    });
  });

  describe('visitor context and titles', () => {
    it('keeps what the widget tells of the page, cleaned, and counts the visitor’s other conversations', async () => {
      const context = {
        pageUrl: 'https://shop.example/pricing?plan=pro',
        referrer: 'javascript:alert(1)',
        language: 'en-GB',
        userAgent: `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36${'x'.repeat(900)}`,
      };
      const first = await parley.call<AnswerBody>('POST', `/agents/${agentId}/query`, { key: null, body: { query: 'Pricing?', context } });
      expect(first.status).toBe(200);
      const shown = await detail(first.body.conversationId, member);
      expect(shown.visitorContext).toEqual({
        pageUrl: 'https://shop.example/pricing?plan=pro',
        referrer: null,
        language: 'en-GB',
        userAgent: context.userAgent.slice(0, 512),
      });
      expect(shown.visitorConversations).toBe(0);

      // The same visitor again, in a new conversation: a returning visitor; a later question does not change the context.
      const again = await parley.call<AnswerBody>('POST', `/agents/${agentId}/query`, {
        key: null,
        body: { query: 'Me again', visitorId: first.body.visitorId, context: { language: 'not a language!', pageUrl: 'ftp://x' } },
      });
      expect(again.body.conversationId).not.toBe(first.body.conversationId);
      const returning = await detail(again.body.conversationId);
      expect(returning.visitorConversations).toBe(1);
      expect(returning.visitorContext).toBeNull();
      await parley.call('POST', `/agents/${agentId}/query`, {
        key: first.body.visitorToken,
        body: { query: 'Follow-up', conversationId: first.body.conversationId, context: { pageUrl: 'https://elsewhere.example/' } },
      });
      expect((await detail(first.body.conversationId)).visitorContext?.pageUrl).toBe('https://shop.example/pricing?plan=pro');

      const tooLong = await parley.call<ErrorBody>('POST', `/agents/${agentId}/query`, {
        key: null,
        body: { query: 'Hi', context: { pageUrl: `https://x.example/${'a'.repeat(9_000)}` } },
      });
      expect(tooLong.body.error).toBe('INVALID_REQUEST');
      const extra = await parley.call<ErrorBody>('POST', `/agents/${agentId}/query`, { key: null, body: { query: 'Hi', context: { html: '<b>' } } });
      expect(extra.body.error).toBe('INVALID_REQUEST');
    });

    it('titles a conversation with its first question, cut to 80 characters, also one stored untitled', async () => {
      const question = `${'Where is my order? '.repeat(8)}Please help`;
      const long = await seedConversation(parley, ws.id, {
        agentId,
        messages: [
          ['agent', 'Hello! How can I help?'],
          ['human', question],
        ],
      });
      const title = (await detail(long.id)).title;
      expect([...title]).toHaveLength(80);
      expect(title.endsWith('…')).toBe(true);
      expect(question.startsWith(title.slice(0, -1))).toBe(true);

      // A conversation stored before titles were kept: named by its first visitor message when shown.
      const legacy = await seedConversation(parley, ws.id, { agentId, messages: [['human', 'Old question\nsecond line']] });
      expect((await parley.core.store.conversations.find(ws.id, legacy.id))?.title).toBe('Old question');
      const db = connectBare(parley.scratch);
      await sql`update conversation set title = '' where id = ${legacy.id}`.execute(db);
      await db.destroy();
      expect((await detail(legacy.id)).title).toBe('Old question');
      expect((await listed('search=Old question')).map((conversation) => conversation.title)).toEqual(['Old question']);
      const simplified = (await call<{ id: string; title: string }[]>(ws, 'GET', '/conversations?simplified=true&search=Old question')).body;
      expect(simplified[0]?.title).toBe('Old question');
    });
  });
});
