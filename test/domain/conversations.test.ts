import { describe, expect, it } from 'vitest';
import { createConversationUseCases, type ConversationUseCases } from '../../src/domain/conversations/conversation-use-cases.js';
import { firstTitle, inboxTabFilters, TITLE_LENGTH, transitionOnMessage } from '../../src/domain/conversations/conversation-rules.js';
import type { InboundMessage } from '../../src/domain/conversations/conversation-intake.js';
import type { AgentRecord, MemberRecord, Store, WorkspaceRecord } from '../../src/store/store.js';
import { agentRecord, createUser, createWorkspace, memberOf, useScratchStore } from '../support/store-contract.js';

/** The conversation rules, through the use cases over a real SQLite store: no server, no HTTP. */
describe('conversation rules', () => {
  const store = useScratchStore('sqlite');

  const setUp = async (): Promise<{ use: ConversationUseCases; workspace: WorkspaceRecord; agent: AgentRecord; member: MemberRecord }> => {
    const workspace = await createWorkspace(store());
    const agent = agentRecord(workspace.id);
    await store().agents.create(agent);
    const membership = memberOf(workspace.id, await createUser(store(), { name: 'Grace' }));
    await store().members.create(membership);
    const member = await store().members.find(workspace.id, membership.id);
    return { use: createConversationUseCases(store()), workspace, agent, member: member! };
  };

  const visitorSays = (use: ConversationUseCases, workspace: WorkspaceRecord, inbound: Omit<InboundMessage, 'channel'> & Partial<InboundMessage>) =>
    use.intake.receive(workspace.id, { channel: 'website', ...inbound });

  const statusOf = async (s: Store, workspaceId: string, id: string) => (await s.conversations.find(workspaceId, id))?.status;

  describe('reopen when a person writes', () => {
    it('is what a human message does, and only a human message', () => {
      expect(transitionOnMessage({ from: 'human', memberId: null })).toEqual({ from: 'RESOLVED', to: 'UNRESOLVED' });
      expect(transitionOnMessage({ from: 'human', memberId: 'm1' })).toEqual({ from: 'RESOLVED', to: 'UNRESOLVED' });
      expect(transitionOnMessage({ from: 'agent', memberId: null })).toBeUndefined();
      expect(transitionOnMessage({ from: 'system', memberId: null })).toBeUndefined();
    });

    it('reopens a resolved conversation when the visitor writes, with a notice saying so', async () => {
      const { use, workspace, agent } = await setUp();
      const { conversation } = await visitorSays(use, workspace, { agentId: agent.id, text: 'Hello' });
      await use.status.patch(workspace.id, conversation.id, { status: 'RESOLVED' });
      const again = await visitorSays(use, workspace, { agentId: agent.id, conversationId: conversation.id, text: 'One more thing' });
      expect(again.conversation.status).toBe('UNRESOLVED');
      const messages = await use.views.messages(workspace.id, conversation.id);
      expect(messages.at(-1)).toMatchObject({ from: 'system', notice: { kind: 'reopened' } });
    });

    it('reopens it when a member replies, without a notice; never when the agent answers', async () => {
      const { use, workspace, agent, member } = await setUp();
      const { conversation } = await visitorSays(use, workspace, { agentId: agent.id, text: 'Hello' });
      await use.status.patch(workspace.id, conversation.id, { status: 'RESOLVED' });
      await use.messages.add(workspace.id, conversation.id, { from: 'agent', text: 'Anything else?' });
      expect(await statusOf(store(), workspace.id, conversation.id)).toBe('RESOLVED');
      await use.messages.add(workspace.id, conversation.id, { from: 'human', text: 'Following up', memberId: member.id });
      expect(await statusOf(store(), workspace.id, conversation.id)).toBe('UNRESOLVED');
      expect((await use.views.messages(workspace.id, conversation.id)).map((message) => message.from)).toEqual(['human', 'agent', 'human']);
    });

    it('leaves a conversation waiting for a person waiting', async () => {
      const { use, workspace, agent } = await setUp();
      const { conversation } = await visitorSays(use, workspace, { agentId: agent.id, text: 'Hello' });
      await use.status.patch(workspace.id, conversation.id, { status: 'HUMAN_REQUESTED' });
      const again = await visitorSays(use, workspace, { agentId: agent.id, conversationId: conversation.id, text: 'Still there?' });
      expect(again.conversation.status).toBe('HUMAN_REQUESTED');
    });
  });

  describe('the first title', () => {
    it('is the first line of a visitor’s words, shortened; nobody else names a conversation', () => {
      expect(firstTitle({ from: 'human', memberId: null }, '  Refund please\nOrder 1234 ')).toBe('Refund please');
      const long = firstTitle({ from: 'human', memberId: null }, 'x'.repeat(300));
      expect(long).toBe(`${'x'.repeat(TITLE_LENGTH - 1)}…`);
      expect(firstTitle({ from: 'human', memberId: null }, '   \n')).toBeUndefined();
      expect(firstTitle({ from: 'human', memberId: 'm1' }, 'A reply')).toBeUndefined();
      expect(firstTitle({ from: 'agent', memberId: null }, 'An answer')).toBeUndefined();
    });

    it('names the conversation after the visitor’s first message and keeps that name', async () => {
      const { use, workspace, agent, member } = await setUp();
      const { conversation } = await use.intake.start(workspace.id, { agentId: agent.id, channel: 'api' });
      await use.messages.add(workspace.id, conversation.id, { from: 'agent', text: 'Welcome! How can I help?' });
      await use.messages.add(workspace.id, conversation.id, { from: 'human', text: 'Hi from the team', memberId: member.id });
      expect((await store().conversations.find(workspace.id, conversation.id))?.title).toBe('');
      const first = await use.messages.add(workspace.id, conversation.id, { from: 'human', text: 'Where is my parcel?' });
      expect(first.conversation.title).toBe('Where is my parcel?');
      const second = await use.messages.add(workspace.id, conversation.id, { from: 'human', text: 'And my refund?' });
      expect(second.conversation.title).toBe('Where is my parcel?');
    });
  });

  describe('unread', () => {
    it('is a visitor’s message no member has read: counted per conversation, cleared by reading it', async () => {
      const { use, workspace, agent, member } = await setUp();
      const { conversation } = await visitorSays(use, workspace, { agentId: agent.id, text: 'Hello' });
      await use.messages.add(workspace.id, conversation.id, { from: 'agent', text: 'Hi!' });
      await visitorSays(use, workspace, { agentId: agent.id, conversationId: conversation.id, text: 'Are you a person?' });
      await use.messages.add(workspace.id, conversation.id, { from: 'human', text: 'I am', memberId: member.id });
      expect((await use.views.get(workspace.id, conversation.id)).unreadCount).toBe(2);
      expect(await use.inbox.markRead(workspace.id, conversation.id)).toBe(2);
      expect((await use.views.get(workspace.id, conversation.id)).unreadCount).toBe(0);
      expect(await use.inbox.markRead(workspace.id, conversation.id)).toBe(0);
    });

    it('is not a member’s own question in the playground', async () => {
      const { use, workspace, agent } = await setUp();
      const { conversation } = await visitorSays(use, workspace, {
        agentId: agent.id,
        channel: 'dashboard',
        playground: true,
        read: true,
        text: 'Test',
      });
      expect((await use.views.get(workspace.id, conversation.id)).unreadCount).toBe(0);
    });
  });

  describe('the inbox tabs', () => {
    it('select by status, by assignee and openness, or everything; Mine only for a member', () => {
      expect(inboxTabFilters('m1')).toEqual({
        humanRequested: { status: 'HUMAN_REQUESTED' },
        unresolved: { status: 'UNRESOLVED' },
        mine: { open: true, assigneeId: 'm1' },
        unassigned: { open: true, unassigned: true },
        all: {},
      });
      expect(inboxTabFilters(null)).not.toHaveProperty('mine');
    });

    it('are counted with their unread conversations, under the list filters', async () => {
      const { use, workspace, agent, member } = await setUp();
      const asked = (text: string, channel: InboundMessage['channel'] = 'website') =>
        visitorSays(use, workspace, { agentId: agent.id, channel, text });
      const waiting = await asked('A person please');
      await use.status.patch(workspace.id, waiting.conversation.id, { status: 'HUMAN_REQUESTED' });
      const mine = await asked('Mine to answer');
      await use.status.patch(workspace.id, mine.conversation.id, { assigneeId: member.id });
      await use.inbox.markRead(workspace.id, mine.conversation.id);
      const resolved = await asked('Thanks, solved', 'api');
      await use.status.patch(workspace.id, resolved.conversation.id, { status: 'RESOLVED', assigneeId: member.id });

      expect(await use.inbox.counts(workspace.id, {}, member.id)).toEqual({
        humanRequested: { total: 1, unread: 1 },
        unresolved: { total: 1, unread: 0 },
        mine: { total: 1, unread: 0 },
        unassigned: { total: 1, unread: 1 },
        all: { total: 3, unread: 2 },
      });
      const withoutMember = await use.inbox.counts(workspace.id, {}, null);
      expect(withoutMember.mine).toEqual({ total: 0, unread: 0 });
      expect((await use.inbox.counts(workspace.id, { channel: 'api' }, member.id)).all).toEqual({ total: 1, unread: 1 });
    });
  });

  describe('a message from outside (the intake)', () => {
    it('keeps a channel’s thread in one conversation, and stores a message delivered twice once', async () => {
      const { use, workspace, agent } = await setUp();
      const fromMail = (text: string, channelMessageId: string) =>
        use.intake.receive(workspace.id, {
          agentId: agent.id,
          channel: 'mail',
          channelExternalId: 'thread-1',
          contact: { email: 'Ada@Example.com', firstName: 'Ada' },
          text,
          channelMessageId,
        });
      const first = await fromMail('My order is late', '<m1@example.com>');
      expect(first).toMatchObject({ created: true, isNew: true, agentAnswers: true });
      expect(first.conversation).toMatchObject({ channel: 'mail', channelExternalId: 'thread-1', title: 'My order is late' });
      const retried = await fromMail('My order is late', '<m1@example.com>');
      expect(retried).toMatchObject({ created: false, isNew: false, agentAnswers: false, message: { id: first.message.id } });
      const next = await fromMail('Any news?', '<m2@example.com>');
      expect(next.conversation.id).toBe(first.conversation.id);
      expect((await use.views.messages(workspace.id, first.conversation.id)).map((message) => message.text)).toEqual([
        'My order is late',
        'Any news?',
      ]);
      const view = await use.views.get(workspace.id, first.conversation.id);
      expect(view.contact).toMatchObject({ email: 'ada@example.com', firstName: 'Ada' });
      const events = await store().outbox.list({ workspaceId: workspace.id });
      expect(events.map((event) => event.type)).toEqual(['conversation.created', 'message.created', 'message.created']);
    });

    it('says the agent does not answer once a member took the conversation over', async () => {
      const { use, workspace, agent } = await setUp();
      const { conversation } = await visitorSays(use, workspace, { agentId: agent.id, text: 'Hello' });
      await use.status.patch(workspace.id, conversation.id, { isAiEnabled: false });
      const again = await visitorSays(use, workspace, { agentId: agent.id, conversationId: conversation.id, text: 'Hello?' });
      expect(again).toMatchObject({ isNew: true, agentAnswers: false });
    });
  });
});
