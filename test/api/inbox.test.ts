import { describe, expect, it } from 'vitest';
import { handoffNotices, noticeText } from '../../src/domain/handoff.js';
import type { SignedInMember, TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import { seedConversation } from './conversations-seed.js';
import type {
  AgentBody,
  AnswerBody,
  ConversationBody,
  ErrorBody,
  ListedConversationBody,
  MessageBody,
  UpdateStatusResultBody,
} from '../support/bodies.js';

interface TabCounts {
  humanRequested: { total: number; unread: number };
  unresolved: { total: number; unread: number };
  mine: { total: number; unread: number };
  unassigned: { total: number; unread: number };
  all: { total: number; unread: number };
}

describe.each(STORE_KINDS)('the inbox API on %s', (kind) => {
  let parley: TestParley;
  let ws: Workspace;
  let agentId: string;
  let ann: SignedInMember;
  let bob: SignedInMember;

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind);
    ws = await parley.newWorkspace();
    agentId = (await parley.call<AgentBody>('POST', '/agents', { key: ws.key, body: { name: 'Concierge' } })).body.id;
    ann = await parley.newMember(ws.id, 'member');
    bob = await parley.newMember(ws.id, 'admin');
  });

  const as = (who: SignedInMember | Workspace) => ('accessToken' in who ? who.accessToken : who.key);
  const call = <T>(who: SignedInMember | Workspace, method: string, path: string, body?: unknown) =>
    parley.call<T>(method, path, { key: as(who), body });
  /** The conversation with its messages in the order they were written (the API answers newest first). */
  const conversation = async (id: string) => {
    const { body } = await call<ConversationBody>(ws, 'GET', `/conversations/${id}`);
    return { ...body, messages: body.messages.reverse() };
  };
  const typesOf = async (conversationId: string) =>
    (await parley.core.store.outbox.list({ workspaceId: ws.id }))
      .filter((event) => event.payload.conversationId === conversationId)
      .map((event) => event.type);

  describe('POST /conversations/:id/messages', () => {
    it('stores a member’s reply as human with the member as sender, takes the conversation over, assigns it and reads it', async () => {
      const seeded = await seedConversation(parley, ws.id, {
        agentId,
        messages: [
          ['human', 'Is anyone there?'],
          ['agent', 'I am a bot.'],
          ['human', 'A person please'],
        ],
      });
      expect((await conversation(seeded.id)).unreadCount).toBe(2);

      const replied = await call<MessageBody & { conversationId: string }>(ann, 'POST', `/conversations/${seeded.id}/messages`, {
        text: 'Hi, Ann here.',
      });
      expect(replied.status).toBe(201);
      expect(replied.body).toMatchObject({
        from: 'human',
        text: 'Hi, Ann here.',
        read: true,
        conversationId: seeded.id,
        sender: { type: 'user', id: ann.memberId, name: 'Test person' },
      });

      const after = await conversation(seeded.id);
      expect(after).toMatchObject({ isAiEnabled: false, assignee: { id: ann.memberId, name: 'Test person' }, unreadCount: 0 });
      expect(after.title).toBe('Is anyone there?');
      expect(after.messages.map((m) => [m.from, m.sender?.type ?? null, m.text])).toEqual([
        ['human', 'visitor', 'Is anyone there?'],
        ['agent', 'agent', 'I am a bot.'],
        ['human', 'visitor', 'A person please'],
        // The take-over names the member to the visitor, as their reply does.
        ['system', null, noticeText(handoffNotices.personJoined('Test person'))],
        ['human', 'user', 'Hi, Ann here.'],
      ]);
      expect(after.participantsUsers).toEqual([{ id: ann.memberId, name: 'Test person' }]);
      expect(after.participants).toContainEqual({ id: ann.memberId, type: 'user' });
      expect(await typesOf(seeded.id)).toEqual([
        'conversation.created',
        'message.created',
        'message.created',
        'message.created',
        'message.created',
        'conversation.updated',
        'message.created',
        'conversation.updated',
      ]);
      const exported = await call<{ messages: { senderName: string }[] }>(ws, 'GET', `/user-conversations/export/${seeded.id}?format=json`);
      expect(exported.body.messages.at(-1)?.senderName).toBe('Test person');
      // Notification e-mails (rendered from the status event) name the member who answered.
      await call(ann, 'PATCH', `/conversations/${seeded.id}`, { status: 'RESOLVED' });
      const resolved = (await parley.core.store.outbox.list({ workspaceId: ws.id })).find(
        (event) => event.type === 'conversation-resolved' && event.payload.conversationId === seeded.id,
      );
      const messages = resolved?.payload.messages as { text: string; senderName?: string }[];
      expect(messages.map((m) => m.senderName ?? null)).toEqual([null, null, null, null, 'Test person']);
    });

    it('leaves the agent on with takeOver false, and keeps someone else’s assignment', async () => {
      const seeded = await seedConversation(parley, ws.id, { agentId, messages: [['human', 'Question']] });
      await call(ws, 'PATCH', `/conversations/${seeded.id}`, { assigneeId: bob.memberId });
      const replied = await call<MessageBody>(ann, 'POST', `/conversations/${seeded.id}/messages`, { text: 'A note', takeOver: false });
      expect(replied.status).toBe(201);
      expect(await conversation(seeded.id)).toMatchObject({ isAiEnabled: true, assignee: { id: bob.memberId } });
    });

    it('after a take-over, the agent no longer answers the visitor, whose message is stored and unread', async () => {
      const asked = await parley.call<AnswerBody>('POST', `/agents/${agentId}/query`, { key: ws.key, body: { query: 'Where is my order?' } });
      const id = asked.body.conversationId;
      await call(ann, 'POST', `/conversations/${id}/messages`, { text: 'I will look into it.' });
      const again = await parley.call<AnswerBody>('POST', `/agents/${agentId}/query`, {
        key: ws.key,
        body: { query: 'Thanks, any news?', conversationId: id },
      });
      expect(again.status).toBe(200);
      expect(again.body).not.toHaveProperty('answer');
      const after = await conversation(id);
      expect(after.messages.at(-1)).toMatchObject({ from: 'human', text: 'Thanks, any news?', sender: { type: 'visitor' }, read: false });
      expect(after.unreadCount).toBe(1);
    });

    it('counts a member’s own question (the playground) as read, a key’s as the visitor’s', async () => {
      const byMember = await parley.call<AnswerBody>('POST', `/agents/${agentId}/query`, { key: ann.accessToken, body: { query: 'Trying it out' } });
      expect((await conversation(byMember.body.conversationId)).unreadCount).toBe(0);
      const byKey = await parley.call<AnswerBody>('POST', `/agents/${agentId}/query`, { key: ws.key, body: { query: 'From our backend' } });
      expect((await conversation(byKey.body.conversationId)).unreadCount).toBe(1);
    });

    it('needs memberId with an API key, refuses another member’s id with a member token, and validates the text', async () => {
      const seeded = await seedConversation(parley, ws.id, { agentId, messages: [['human', 'Hello']] });
      const path = `/conversations/${seeded.id}/messages`;
      const keyless = await call<ErrorBody>(ws, 'POST', path, { text: 'From a key' });
      expect(keyless.status).toBe(400);
      expect(keyless.body.details).toContainEqual(expect.objectContaining({ field: 'body.memberId' }));
      const byKey = await call<MessageBody>(ws, 'POST', path, { text: 'From a key', memberId: bob.memberId });
      expect(byKey.status).toBe(201);
      expect(byKey.body.sender).toMatchObject({ type: 'user', id: bob.memberId });
      expect((await call<ErrorBody>(ann, 'POST', path, { text: 'Posing', memberId: bob.memberId })).status).toBe(400);
      expect((await call<ErrorBody>(ws, 'POST', path, { text: 'Nobody', memberId: 'mem_unknown' })).status).toBe(400);
      for (const body of [{}, { text: '' }, { text: 5 }, { text: 'x'.repeat(20_001) }]) {
        expect((await call<ErrorBody>(ann, 'POST', path, body)).status).toBe(400);
      }
      expect((await call<ErrorBody>(ann, 'POST', '/conversations/nope/messages', { text: 'x' })).status).toBe(404);
    });
  });

  describe('assignment, read state and the tabs', () => {
    it('assigns to a member and unassigns, refusing someone who is not a member', async () => {
      const seeded = await seedConversation(parley, ws.id, { agentId, messages: [['human', 'Assign me']] });
      const assigned = await call<{ assignee: unknown }>(ws, 'PATCH', `/conversations/${seeded.id}`, { assigneeId: ann.memberId });
      expect(assigned.status).toBe(200);
      expect(assigned.body.assignee).toEqual({ id: ann.memberId, name: 'Test person' });
      const other = await parley.newWorkspace();
      const stranger = await parley.newMember(other.id);
      const refused = await call<ErrorBody>(ws, 'PATCH', `/conversations/${seeded.id}`, { assigneeId: stranger.memberId });
      expect(refused.status).toBe(400);
      expect(refused.body.details).toContainEqual(expect.objectContaining({ field: 'body.assigneeId' }));
      expect((await call<{ assignee: unknown }>(ws, 'PATCH', `/conversations/${seeded.id}`, { assigneeId: null })).body.assignee).toBeNull();
      expect((await typesOf(seeded.id)).filter((type) => type === 'conversation.updated')).toHaveLength(2);
    });

    it('marks the visitor’s messages read once, with an event only when something was unread', async () => {
      const seeded = await seedConversation(parley, ws.id, {
        agentId,
        messages: [
          ['human', 'one'],
          ['agent', 'answer'],
          ['human', 'two'],
        ],
      });
      const listed = async () =>
        (await call<ListedConversationBody[]>(ws, 'GET', '/user-conversations?limit=100')).body.find((c) => c.id === seeded.id);
      expect((await listed())?.unreadCount).toBe(2);
      expect((await call(ann, 'POST', `/conversations/${seeded.id}/read`)).body).toEqual({ marked: 2, unreadCount: 0 });
      expect((await call(ann, 'POST', `/conversations/${seeded.id}/read`)).body).toEqual({ marked: 0, unreadCount: 0 });
      expect((await listed())?.unreadCount).toBe(0);
      const updates = (await parley.core.store.outbox.list({ workspaceId: ws.id })).filter(
        (event) => event.payload.conversationId === seeded.id && event.type === 'conversation.updated',
      );
      expect(updates.map((event) => event.payload.changed)).toEqual([['read']]);
    });

    it('counts each tab, for the calling member, under the list filters; the list filters agree', async () => {
      const fresh = await parley.newWorkspace();
      const carl = await parley.newMember(fresh.id);
      const dee = await parley.newMember(fresh.id);
      const agent = (await parley.call<AgentBody>('POST', '/agents', { key: fresh.key, body: { name: 'Tabs' } })).body.id;
      const seed = async (channel: 'website' | 'messenger_a', unread: boolean) =>
        (await seedConversation(parley, fresh.id, { agentId: agent, channel, messages: unread ? [['human', 'hi']] : [['agent', 'hello']] })).id;
      const patch = (id: string, body: unknown) => parley.call('PATCH', `/conversations/${id}`, { key: fresh.key, body });
      const [c1, c2, c3, c4, c5] = [
        await seed('website', true),
        await seed('website', false),
        await seed('messenger_a', true),
        await seed('website', true),
        await seed('website', false),
      ];
      await patch(c1!, { status: 'HUMAN_REQUESTED', assigneeId: carl.memberId });
      await patch(c2!, { assigneeId: carl.memberId });
      await patch(c3!, { status: 'HUMAN_REQUESTED' });
      await patch(c4!, { status: 'RESOLVED', assigneeId: carl.memberId });
      await patch(c5!, { assigneeId: dee.memberId });

      const counts = await parley.call<TabCounts>('GET', '/user-conversations/counts', { key: carl.accessToken });
      expect(counts.body).toEqual({
        humanRequested: { total: 2, unread: 2 },
        unresolved: { total: 2, unread: 0 },
        mine: { total: 2, unread: 1 },
        unassigned: { total: 1, unread: 1 },
        all: { total: 5, unread: 3 },
      });
      const website = await parley.call<TabCounts>('GET', '/user-conversations/counts?channel=website', { key: dee.accessToken });
      expect(website.body).toMatchObject({ humanRequested: { total: 1, unread: 1 }, mine: { total: 1, unread: 0 }, all: { total: 4, unread: 2 } });
      // A key counts "mine" for the member it names, and for nobody without one.
      expect((await parley.call<TabCounts>('GET', `/user-conversations/counts?memberId=${dee.memberId}`, { key: fresh.key })).body.mine.total).toBe(
        1,
      );
      expect((await parley.call<TabCounts>('GET', '/user-conversations/counts', { key: fresh.key })).body.mine.total).toBe(0);

      const ids = async (query: string) =>
        (await parley.call<ListedConversationBody[]>('GET', `/user-conversations?${query}`, { key: fresh.key })).body.map((c) => c.id).sort();
      expect(await ids('status=HUMAN_REQUESTED')).toEqual([c1, c3].sort());
      expect(await ids(`assigneeId=${carl.memberId}`)).toEqual([c1, c2, c4].sort());
      expect(await ids('unassigned=true')).toEqual([c3]);
      expect(await ids('open=true')).toEqual([c1, c2, c3, c5].sort());
      expect(await ids(`open=true&assigneeId=${carl.memberId}`)).toEqual([c1, c2].sort());
      expect(await ids('unassigned=true&channel=website')).toEqual([]);
    });

    it('bulk-changes exactly the conversations of the filter, with conversation.updated for each that changed and no notifying event', async () => {
      const fresh = await parley.newWorkspace();
      const agent = (await parley.call<AgentBody>('POST', '/agents', { key: fresh.key, body: { name: 'Bulk' } })).body.id;
      const ids: string[] = [];
      for (const channel of ['website', 'website', 'messenger_a', 'website'] as const) {
        ids.push((await seedConversation(parley, fresh.id, { agentId: agent, channel, messages: [['human', `hi from ${channel}`]] })).id);
      }
      await parley.call('PATCH', `/conversations/${ids[0]}`, { key: fresh.key, body: { status: 'HUMAN_REQUESTED' } });
      const counted = (await parley.call<TabCounts>('GET', '/user-conversations/counts?channel=website', { key: fresh.key })).body.unresolved.total;
      expect(counted).toBe(2);
      const before = (await parley.core.store.outbox.list({ workspaceId: fresh.id })).length;
      const bulk = await parley.call<UpdateStatusResultBody>('POST', '/conversations/update-status?channel=website&status=UNRESOLVED', {
        key: fresh.key,
        body: { status: 'RESOLVED' },
      });
      expect(bulk.body.count).toBe(counted);
      const statuses = await Promise.all(
        ids.map(async (id) => (await parley.call<ConversationBody>('GET', `/conversations/${id}`, { key: fresh.key })).body.status),
      );
      expect(statuses).toEqual(['HUMAN_REQUESTED', 'RESOLVED', 'UNRESOLVED', 'RESOLVED']);
      const events = (await parley.core.store.outbox.list({ workspaceId: fresh.id })).slice(before);
      expect(events.map((event) => [event.type, event.payload.conversationId]).sort()).toEqual(
        [
          ['conversation.updated', ids[1]],
          ['conversation.updated', ids[3]],
        ].sort(),
      );
    });
  });
});
