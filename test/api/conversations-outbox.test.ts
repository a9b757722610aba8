import { describe, expect, it } from 'vitest';
import { AI_SWITCHED_OFF_NOTICE, handoffNotices, noticeText } from '../../src/domain/handoff.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import { seedConversation } from './conversations-seed.js';
import type { AgentBody, ConversationBody, UpdateStatusResultBody } from '../support/bodies.js';

describe.each(STORE_KINDS)('conversation events and status changes on %s', (kind) => {
  let parley: TestParley;
  let ws: Workspace;
  let agentId: string;

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind);
    ws = await parley.newWorkspace();
    agentId = (await parley.call<AgentBody>('POST', '/agents', { key: ws.key, body: { name: 'Concierge' } })).body.id;
  });

  const patch = (id: string, body: unknown) => parley.call('PATCH', `/conversations/${id}`, { key: ws.key, body });
  const STATUS_EVENTS = ['conversation-resolved', 'human-requested'];
  /** The status events of one conversation (its conversation.created and message.created events aside). */
  const eventsOf = async (conversationId: string) =>
    (await parley.core.store.outbox.list({ workspaceId: ws.id })).filter(
      (event) => event.payload.conversationId === conversationId && STATUS_EVENTS.includes(event.type),
    );

  it('writes one outbox event per status change to RESOLVED or HUMAN_REQUESTED, none when unchanged', async () => {
    const seeded = await seedConversation(parley, ws.id, {
      agentId,
      contact: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' },
      messages: [
        ['human', 'My order is late'],
        ['agent', 'Let me check.'],
      ],
    });
    expect(await eventsOf(seeded.id)).toEqual([]);

    expect((await patch(seeded.id, { status: 'RESOLVED' })).status).toBe(200);
    const [resolved, ...none] = await eventsOf(seeded.id);
    expect(none).toEqual([]);
    expect(resolved).toMatchObject({ workspaceId: ws.id, type: 'conversation-resolved', dispatchedAt: null });
    expect(resolved!.payload).toEqual({
      conversationId: seeded.id,
      title: 'My order is late',
      status: 'RESOLVED',
      channel: 'api',
      agent: { id: agentId, name: 'Concierge' },
      contact: { id: expect.any(String), firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', phoneNumber: null },
      messages: [
        { id: seeded.messageIds[0], from: 'human', text: 'My order is late', createdAt: expect.any(String) },
        { id: seeded.messageIds[1], from: 'agent', text: 'Let me check.', createdAt: expect.any(String) },
      ],
    });

    // The same status again is no change: no event.
    await patch(seeded.id, { status: 'RESOLVED', metadata: { note: 'again' } });
    expect(await eventsOf(seeded.id)).toHaveLength(1);

    // Back to UNRESOLVED emits nothing; HUMAN_REQUESTED emits human-requested.
    await patch(seeded.id, { status: 'UNRESOLVED' });
    expect(await eventsOf(seeded.id)).toHaveLength(1);
    await patch(seeded.id, { status: 'HUMAN_REQUESTED', isAiEnabled: false });
    const events = await eventsOf(seeded.id);
    expect(events.map((event) => event.type)).toEqual(['conversation-resolved', 'human-requested']);
    // The notice added by the same change is part of what the event reports.
    const reported = events[1]!.payload.messages as { from: string; text: string }[];
    expect(reported.at(-1)).toMatchObject({ from: 'system', text: AI_SWITCHED_OFF_NOTICE });
  });

  it('carries at most the last 10 messages', async () => {
    const messages = Array.from({ length: 12 }, (_, i) => ['human', `message ${i}`] as ['human', string]);
    const seeded = await seedConversation(parley, ws.id, { messages });
    await patch(seeded.id, { status: 'HUMAN_REQUESTED' });
    const [event] = await eventsOf(seeded.id);
    const texts = (event!.payload.messages as { text: string }[]).map((message) => message.text);
    // The notice telling the visitor a person will answer is the last of them.
    expect(texts).toEqual([...messages.slice(3).map(([, text]) => text), noticeText(handoffNotices.humanRequested(null))]);
  });

  it('writes the event in the transaction of the change: a failed event write undoes the change', async () => {
    const seeded = await seedConversation(parley, ws.id, { messages: [['human', 'hello']] });
    await patch(seeded.id, { status: 'RESOLVED' });
    const [existing] = await eventsOf(seeded.id);
    const store = parley.core.store;
    const at = new Date().toISOString();
    // An event whose id is taken cannot be written, so the whole change must roll back.
    await expect(
      store.conversations.update(
        ws.id,
        seeded.id,
        { status: 'HUMAN_REQUESTED', isAiEnabled: false },
        {
          onAiSwitchedOff: {
            id: `notice-${seeded.id}`,
            workspaceId: ws.id,
            conversationId: seeded.id,
            from: 'system',
            text: AI_SWITCHED_OFF_NOTICE,
            sources: [],
            read: true,
            attachments: [],
            usage: null,
            model: null,
            visitorId: null,
            memberId: null,
            createdAt: at,
            interrupted: false,
            notice: { kind: 'aiSwitchedOff' },
          },
          onStatusChanged: { id: existing!.id, workspaceId: ws.id, type: 'human-requested', payload: {} },
        },
        at,
      ),
    ).rejects.toThrow();
    const after = await store.conversations.find(ws.id, seeded.id);
    expect(after).toMatchObject({ status: 'RESOLVED', isAiEnabled: true });
    expect(await store.messages.find(ws.id, `notice-${seeded.id}`)).toBeUndefined();
    expect(await eventsOf(seeded.id)).toHaveLength(1);
  });

  it('records conversation.created and message.created with the conversation and message they report', async () => {
    const seeded = await seedConversation(parley, ws.id, {
      agentId,
      messages: [
        ['human', 'Where is my parcel?'],
        ['agent', 'On its way.'],
      ],
    });
    const events = (await parley.core.store.outbox.list({ workspaceId: ws.id })).filter((event) => event.payload.conversationId === seeded.id);
    expect(events.map((event) => event.type)).toEqual(['conversation.created', 'message.created', 'message.created']);
    expect(events[0]!.payload).toMatchObject({ conversationId: seeded.id, agentId, channel: 'api', status: 'UNRESOLVED' });
    expect(events.slice(1).map((event) => event.payload.message)).toEqual([
      {
        id: seeded.messageIds[0],
        from: 'human',
        text: 'Where is my parcel?',
        createdAt: expect.any(String),
        sender: { type: 'visitor', id: expect.any(String) },
      },
      { id: seeded.messageIds[1], from: 'agent', text: 'On its way.', createdAt: expect.any(String), sender: { type: 'agent', id: agentId } },
    ]);
  });

  it('marks events dispatched once', async () => {
    const seeded = await seedConversation(parley, ws.id);
    await patch(seeded.id, { status: 'RESOLVED' });
    const [event] = await eventsOf(seeded.id);
    const pendingIds = async () => (await parley.core.store.outbox.list({ pending: true })).map((e) => e.id);
    expect(await pendingIds()).toContain(event!.id);
    const at = new Date().toISOString();
    expect(await parley.core.store.outbox.markDispatched(event!.id, at)).toBe(true);
    expect(await parley.core.store.outbox.markDispatched(event!.id, at)).toBe(false);
    expect(await pendingIds()).not.toContain(event!.id);
    const [dispatched] = await eventsOf(seeded.id);
    expect(dispatched!.dispatchedAt).toBe(at);
    expect((await parley.core.store.outbox.list({ pending: false })).map((e) => e.id)).toContain(event!.id);
  });

  it('emits nothing for the bulk status update', async () => {
    const other = await parley.newWorkspace();
    await seedConversation(parley, other.id);
    const response = await parley.call<UpdateStatusResultBody>('POST', '/conversations/update-status', {
      key: other.key,
      body: { status: 'RESOLVED' },
    });
    expect(response.body.count).toBe(1);
    const types = (await parley.core.store.outbox.list({ workspaceId: other.id })).map((event) => event.type);
    expect(types.filter((type) => STATUS_EVENTS.includes(type))).toEqual([]);
  });

  it('reopens a RESOLVED conversation when a person writes, not when the agent does', async () => {
    const conversations = parley.core.services.conversations;
    const seeded = await seedConversation(parley, ws.id, { messages: [['human', 'first']] });
    await patch(seeded.id, { status: 'RESOLVED' });
    const agentReply = await conversations.messages.add(ws.id, seeded.id, { from: 'agent', text: 'anything else?' });
    expect(agentReply.conversation.status).toBe('RESOLVED');
    const human = await conversations.messages.add(ws.id, seeded.id, { from: 'human', text: 'one more thing' });
    expect(human.conversation.status).toBe('UNRESOLVED');
    expect((await parley.call<ConversationBody>('GET', `/conversations/${seeded.id}`, { key: ws.key })).body.status).toBe('UNRESOLVED');

    // HUMAN_REQUESTED stays: a person is already on it.
    await patch(seeded.id, { status: 'HUMAN_REQUESTED' });
    expect((await conversations.messages.add(ws.id, seeded.id, { from: 'human', text: 'still there?' })).conversation.status).toBe('HUMAN_REQUESTED');
  });
});
