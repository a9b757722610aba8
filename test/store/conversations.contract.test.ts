import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { REOPEN_ON_HUMAN } from '../../src/domain/conversations/conversation-rules.js';
import type { ConversationFilter, ConversationRecord, ConversationStatus } from '../../src/store/store.js';
import {
  agentRecord,
  answerSourceRecord,
  at,
  conversationRecord,
  createConversation,
  messageRecord,
  outboxEvent,
  stored,
  twoWorkspaces,
  useScratchStore,
} from '../support/store-contract.js';
import { STORE_KINDS } from '../support/stores.js';

describe.each(STORE_KINDS)('the conversations port of the %s store', (kind) => {
  const store = useScratchStore(kind);

  const eventsOf = async (workspaceId: string) => (await store().outbox.list({ workspaceId })).map((event) => event.id);
  const messagesOf = async (workspaceId: string, conversationId: string) =>
    (await store().messages.listByConversations(workspaceId, [conversationId])).map((message) => message.text);
  const idsOf = (conversations: ConversationRecord[]) => conversations.map((conversation) => conversation.id);

  describe('ensuring', () => {
    it('creates the conversation when the workspace has none of that id, with its event', async () => {
      const [a] = await twoWorkspaces(store());
      const wanted = conversationRecord(a.id, { channel: 'website', channelExternalId: 'ext-1', metadata: { plan: 'pro' }, createdAt: at(7) });
      const event = outboxEvent(a.id, { type: 'conversation.created' });
      const ensured = await store().conversations.ensure(wanted, event);
      expect(ensured).toEqual({ created: true, conversation: { ...wanted, assigneeId: null, playground: false, updatedAt: at(7) } });
      expect(await store().conversations.find(a.id, wanted.id)).toEqual(ensured.conversation);
      expect(await eventsOf(a.id)).toEqual([event.id]);
    });

    it('keeps whether a conversation is the playground’s, and filters on it', async () => {
      const [a] = await twoWorkspaces(store());
      const test = await createConversation(store(), a.id, { channel: 'dashboard', playground: true, createdAt: at(1) });
      const visitor = await createConversation(store(), a.id, { channel: 'dashboard', createdAt: at(2) });
      expect([test.playground, visitor.playground]).toEqual([true, false]);
      const ids = async (filter: { playground?: boolean }) => (await store().conversations.list(a.id, filter)).map((one) => one.id);
      expect(await ids({ playground: false })).toEqual([visitor.id]);
      expect(await ids({ playground: true })).toEqual([test.id]);
      expect(await ids({})).toEqual([visitor.id, test.id]);
      expect((await store().conversations.countGroups(a.id, { playground: false }, { all: {} }, {})).all?.total).toBe(1);
    });

    it('returns the workspace’s existing conversation as it is, and writes no second event', async () => {
      const [a] = await twoWorkspaces(store());
      const first = await createConversation(store(), a.id, { title: 'Original' });
      const again = await store().conversations.ensure(
        conversationRecord(a.id, { id: first.id, title: 'Other', channel: 'whatsapp', createdAt: at(99) }),
        outboxEvent(a.id),
      );
      expect(again).toEqual({ created: false, conversation: first });
      expect(await eventsOf(a.id)).toEqual([]);
    });

    it('creates another workspace’s conversation of the same id as a conversation of its own', async () => {
      const [a, b] = await twoWorkspaces(store());
      const mine = await createConversation(store(), a.id, { title: 'Mine' });
      const theirs = await store().conversations.ensure(conversationRecord(b.id, { id: mine.id, title: 'Theirs' }));
      expect(theirs).toMatchObject({ created: true, conversation: { workspaceId: b.id, title: 'Theirs' } });
      expect(await store().conversations.find(a.id, mine.id)).toEqual(mine);
    });

    it('creates a conversation once when the same id is ensured several times at once', async () => {
      const [a] = await twoWorkspaces(store());
      const id = newId();
      const results = await Promise.all(
        [1, 2, 3].map((n) => store().conversations.ensure(conversationRecord(a.id, { id, title: `try ${n}` }), outboxEvent(a.id))),
      );
      expect(results.filter((result) => result.created)).toHaveLength(1);
      expect(new Set(results.map((result) => result.conversation.title)).size).toBe(1);
      expect(await eventsOf(a.id)).toHaveLength(1);
    });
  });

  describe('reading', () => {
    it('reads a conversation only in its own workspace, and tells another workspace’s from none', async () => {
      const [a, b] = await twoWorkspaces(store());
      const conversation = await createConversation(store(), a.id);
      expect(await store().conversations.find(b.id, conversation.id)).toBeUndefined();
      expect(await store().conversations.list(b.id)).toEqual([]);
      expect(await store().conversations.ownerOf(conversation.id)).toBe(a.id);
      expect(await store().conversations.ownerOf(newId())).toBeUndefined();
    });
  });

  describe('appending messages', () => {
    it('adds the message, makes the conversation the most recently active, and writes its event with it', async () => {
      const [a] = await twoWorkspaces(store());
      const conversation = await createConversation(store(), a.id, { createdAt: at(1) });
      const message = messageRecord(a.id, conversation.id, {
        from: 'agent',
        text: 'Here you go',
        sources: [answerSourceRecord({ chunkId: 'c1', pageNumber: 3 })],
        usage: { promptTokens: 3, completionTokens: 4, totalTokens: 7 },
        model: 'local',
        createdAt: at(50),
      });
      const event = outboxEvent(a.id, { type: 'message.created' });
      const appended = await store().conversations.appendMessage(message, { event });
      expect(appended).toEqual({ message: stored(message), conversation: { ...conversation, updatedAt: at(50) } });
      expect(await store().conversations.find(a.id, conversation.id)).toEqual(appended?.conversation);
      expect(await messagesOf(a.id, conversation.id)).toEqual(['Here you go']);
      expect(await eventsOf(a.id)).toEqual([event.id]);
    });

    it('makes the status transition it is given, only from its status', async () => {
      const [a] = await twoWorkspaces(store());
      const resolved = await createConversation(store(), a.id, { status: 'RESOLVED' });
      const without = await store().conversations.appendMessage(messageRecord(a.id, resolved.id, { from: 'human' }));
      expect(without?.conversation.status).toBe('RESOLVED');
      const reopened = await store().conversations.appendMessage(messageRecord(a.id, resolved.id, { createdAt: at(60) }), {
        transition: REOPEN_ON_HUMAN,
      });
      expect(reopened?.conversation.status).toBe('UNRESOLVED');
      const waiting = await createConversation(store(), a.id, { status: 'HUMAN_REQUESTED' });
      const stays = await store().conversations.appendMessage(messageRecord(a.id, waiting.id), { transition: REOPEN_ON_HUMAN });
      expect(stays?.conversation.status).toBe('HUMAN_REQUESTED');
    });

    it('names an untitled conversation and never renames a titled one', async () => {
      const [a] = await twoWorkspaces(store());
      const untitled = await createConversation(store(), a.id);
      const titled = (title: string) => ({ titleIfUntitled: title });
      expect((await store().conversations.appendMessage(messageRecord(a.id, untitled.id), titled('Refund question')))?.conversation.title).toBe(
        'Refund question',
      );
      expect((await store().conversations.appendMessage(messageRecord(a.id, untitled.id), titled('Something else')))?.conversation.title).toBe(
        'Refund question',
      );
      const given = await createConversation(store(), a.id, { title: 'Given' });
      expect((await store().conversations.appendMessage(messageRecord(a.id, given.id), titled('Other')))?.conversation.title).toBe('Given');
      const noTitle = await createConversation(store(), a.id);
      expect((await store().conversations.appendMessage(messageRecord(a.id, noTitle.id)))?.conversation.title).toBe('');
    });

    it('adds nothing to a conversation that is not in the workspace, even when another workspace has one of that id', async () => {
      const [a, b] = await twoWorkspaces(store());
      const conversation = await createConversation(store(), a.id, { status: 'RESOLVED' });
      const message = messageRecord(b.id, conversation.id, { createdAt: at(80) });
      expect(
        await store().conversations.appendMessage(message, { transition: REOPEN_ON_HUMAN, titleIfUntitled: 'Hijacked', event: outboxEvent(b.id) }),
      ).toBeUndefined();
      expect(
        await store().conversations.appendMessage(messageRecord(a.id, newId()), { titleIfUntitled: 'x', event: outboxEvent(a.id) }),
      ).toBeUndefined();
      expect(await store().messages.ownerOf(message.id)).toBeUndefined();
      expect(await store().conversations.find(a.id, conversation.id)).toEqual(conversation);
      expect([...(await eventsOf(a.id)), ...(await eventsOf(b.id))]).toEqual([]);
    });

    it('appends to the workspace’s own conversation when another workspace uses the same id', async () => {
      const [a, b] = await twoWorkspaces(store());
      const mine = await createConversation(store(), a.id, { status: 'RESOLVED' });
      await createConversation(store(), b.id, { id: mine.id, status: 'RESOLVED' });
      await store().conversations.appendMessage(messageRecord(b.id, mine.id, { text: 'for b' }), {
        transition: REOPEN_ON_HUMAN,
        titleIfUntitled: 'B title',
      });
      expect(await store().conversations.find(a.id, mine.id)).toEqual(mine);
      expect(await messagesOf(a.id, mine.id)).toEqual([]);
      expect(await store().conversations.find(b.id, mine.id)).toMatchObject({ status: 'UNRESOLVED', title: 'B title' });
    });

    it('changes nothing when the message cannot be written', async () => {
      const [a] = await twoWorkspaces(store());
      const conversation = await createConversation(store(), a.id, { status: 'RESOLVED' });
      const taken = messageRecord(a.id, conversation.id, { from: 'agent' });
      await store().conversations.appendMessage(taken);
      const before = await store().conversations.find(a.id, conversation.id);
      const clash = messageRecord(a.id, conversation.id, { id: taken.id, from: 'human', createdAt: at(500) });
      await expect(
        store().conversations.appendMessage(clash, { transition: REOPEN_ON_HUMAN, titleIfUntitled: 'Title', event: outboxEvent(a.id) }),
      ).rejects.toThrow();
      expect(await store().conversations.find(a.id, conversation.id)).toEqual(before);
      expect(await eventsOf(a.id)).toEqual([]);
    });
  });

  describe('rewriting an answer appended while it streams', () => {
    it('saves its words as it goes, and at its end its details with its event', async () => {
      const [a] = await twoWorkspaces(store());
      const conversation = await createConversation(store(), a.id);
      const started = messageRecord(a.id, conversation.id, {
        from: 'agent',
        text: 'The shop',
        model: 'remote',
        interrupted: true,
        createdAt: at(50),
      });
      await store().conversations.appendMessage(started);
      expect(await store().conversations.rewriteAnswer({ ...started, text: 'The shop opens' })).toEqual(
        stored({ ...started, text: 'The shop opens' }),
      );
      expect(await eventsOf(a.id)).toEqual([]);

      const ended = {
        ...started,
        text: 'The shop opens at nine.',
        sources: [answerSourceRecord({ chunkId: 'c1', pageNumber: 3 })],
        usage: { promptTokens: 3, completionTokens: 5, totalTokens: 8 },
        interrupted: false,
      };
      const event = outboxEvent(a.id, { type: 'message.created' });
      expect(await store().conversations.rewriteAnswer(ended, { event, at: at(60) })).toEqual(stored(ended));
      expect(await store().messages.find(a.id, started.id)).toEqual(stored(ended));
      expect(await eventsOf(a.id)).toEqual([event.id]);
    });

    it('rewrites nothing of another workspace’s message', async () => {
      const [a, b] = await twoWorkspaces(store());
      const conversation = await createConversation(store(), a.id);
      const started = messageRecord(a.id, conversation.id, { from: 'agent', interrupted: true });
      await store().conversations.appendMessage(started);
      const hijack = { ...started, workspaceId: b.id, text: 'Hijacked', interrupted: false };
      expect(await store().conversations.rewriteAnswer(hijack, { event: outboxEvent(b.id), at: at(60) })).toBeUndefined();
      expect(await store().messages.find(a.id, started.id)).toEqual(stored(started));
      expect(await eventsOf(b.id)).toEqual([]);
    });
  });

  describe('updating', () => {
    it('applies the changes, merges metadata key by key, and stamps the change', async () => {
      const [a] = await twoWorkspaces(store());
      const { id: contactId } = await store().participants.upsertContact(a.id, newId(), { email: `${newId()}@example.com` }, at(0));
      const conversation = await createConversation(store(), a.id, { metadata: { plan: 'pro', region: 'eu', nested: { a: 1 } } });
      const changed = await store().conversations.update(
        a.id,
        conversation.id,
        { status: 'HUMAN_REQUESTED', isAiEnabled: false, metadata: { region: 'us', nested: { b: 2 }, vip: true }, contactId },
        {},
        at(40),
      );
      const after = {
        ...conversation,
        status: 'HUMAN_REQUESTED',
        isAiEnabled: false,
        metadata: { plan: 'pro', region: 'us', nested: { b: 2 }, vip: true },
        contactId,
        updatedAt: at(40),
      };
      expect(changed).toEqual({ before: conversation, after });
      expect(await store().conversations.find(a.id, conversation.id)).toEqual(after);
    });

    it('keeps every key of metadata merged by changes made at the same time', async () => {
      const [a] = await twoWorkspaces(store());
      const conversation = await createConversation(store(), a.id, { metadata: { kept: true } });
      const keys = ['k1', 'k2', 'k3', 'k4'];
      await Promise.all(keys.map((key, n) => store().conversations.update(a.id, conversation.id, { metadata: { [key]: n } }, {}, at(n + 1))));
      expect((await store().conversations.find(a.id, conversation.id))?.metadata).toEqual({ kept: true, k1: 0, k2: 1, k3: 2, k4: 3 });
    });

    it('adds the switch-off notice only when the change switches the agent off', async () => {
      const [a] = await twoWorkspaces(store());
      const conversation = await createConversation(store(), a.id);
      const notice = () => messageRecord(a.id, conversation.id, { from: 'system', text: 'The agent was switched off' });
      await store().conversations.update(a.id, conversation.id, { metadata: { x: 1 } }, { onAiSwitchedOff: notice() }, at(1));
      await store().conversations.update(a.id, conversation.id, { isAiEnabled: true }, { onAiSwitchedOff: notice() }, at(2));
      expect(await messagesOf(a.id, conversation.id)).toEqual([]);
      await store().conversations.update(a.id, conversation.id, { isAiEnabled: false }, { onAiSwitchedOff: notice() }, at(3));
      await store().conversations.update(a.id, conversation.id, { isAiEnabled: false }, { onAiSwitchedOff: notice() }, at(4));
      expect(await messagesOf(a.id, conversation.id)).toEqual(['The agent was switched off']);
    });

    it('writes the status event only when the change gives another status', async () => {
      const [a] = await twoWorkspaces(store());
      const conversation = await createConversation(store(), a.id, { status: 'UNRESOLVED' });
      await store().conversations.update(a.id, conversation.id, { status: 'UNRESOLVED' }, { onStatusChanged: outboxEvent(a.id) }, at(1));
      await store().conversations.update(a.id, conversation.id, { metadata: { a: 1 } }, { onStatusChanged: outboxEvent(a.id) }, at(2));
      expect(await eventsOf(a.id)).toEqual([]);
      const resolved = outboxEvent(a.id, { type: 'conversation.resolved' });
      const update = await store().conversations.update(a.id, conversation.id, { status: 'RESOLVED' }, { onStatusChanged: resolved }, at(3));
      expect(update).toMatchObject({ before: { status: 'UNRESOLVED' }, after: { status: 'RESOLVED' } });
      expect(await eventsOf(a.id)).toEqual([resolved.id]);
    });

    it('changes nothing and writes no effect for a conversation not in the workspace', async () => {
      const [a, b] = await twoWorkspaces(store());
      const conversation = await createConversation(store(), a.id);
      const effects = {
        onAiSwitchedOff: messageRecord(b.id, conversation.id, { from: 'system' }),
        onStatusChanged: outboxEvent(b.id),
      };
      expect(await store().conversations.update(b.id, conversation.id, { status: 'RESOLVED', isAiEnabled: false }, effects, at(9))).toBeUndefined();
      expect(await store().conversations.find(a.id, conversation.id)).toEqual(conversation);
      expect(await store().messages.ownerOf(effects.onAiSwitchedOff.id)).toBeUndefined();
      expect(await eventsOf(b.id)).toEqual([]);
    });

    it('rolls the change back when one of its effects cannot be written', async () => {
      const [a] = await twoWorkspaces(store());
      const conversation = await createConversation(store(), a.id);
      const taken = messageRecord(a.id, conversation.id, { from: 'agent' });
      await store().conversations.appendMessage(taken);
      const before = await store().conversations.find(a.id, conversation.id);
      const effects = { onAiSwitchedOff: { ...taken, from: 'system' as const }, onStatusChanged: outboxEvent(a.id) };
      await expect(
        store().conversations.update(a.id, conversation.id, { status: 'RESOLVED', isAiEnabled: false }, effects, at(700)),
      ).rejects.toThrow();
      expect(await store().conversations.find(a.id, conversation.id)).toEqual(before);
      expect(await eventsOf(a.id)).toEqual([]);
    });
  });

  describe('setting the status of many', () => {
    it('sets the status of the workspace’s conversations matching the filter and counts them', async () => {
      const [a, b] = await twoWorkspaces(store());
      const agent = agentRecord(a.id);
      await store().agents.create(agent);
      const web = await createConversation(store(), a.id, { channel: 'website', agentId: agent.id });
      const webOther = await createConversation(store(), a.id, { channel: 'website' });
      const api = await createConversation(store(), a.id, { channel: 'api', agentId: agent.id });
      const elsewhere = await createConversation(store(), b.id, { channel: 'website' });
      const statusOf = async (workspaceId: string, id: string) => (await store().conversations.find(workspaceId, id))?.status;

      expect(await store().conversations.bulkUpdateStatus(a.id, { channel: 'website', agentId: agent.id }, 'RESOLVED', at(10))).toBe(1);
      expect([await statusOf(a.id, web.id), await statusOf(a.id, webOther.id), await statusOf(a.id, api.id)]).toEqual([
        'RESOLVED',
        'UNRESOLVED',
        'UNRESOLVED',
      ]);
      expect(await store().conversations.bulkUpdateStatus(a.id, { channel: 'website' }, 'HUMAN_REQUESTED', at(11))).toBe(2);
      expect(await store().conversations.bulkUpdateStatus(a.id, {}, 'RESOLVED', at(12))).toBe(3);
      expect(await statusOf(b.id, elsewhere.id)).toBe('UNRESOLVED');
      expect(await store().conversations.bulkUpdateStatus(b.id, { agentId: agent.id }, 'RESOLVED', at(13))).toBe(0);
    });

    it('counts a conversation already in that status as matched, without moving it up the list', async () => {
      const [a] = await twoWorkspaces(store());
      const resolved = await createConversation(store(), a.id, { status: 'RESOLVED', createdAt: at(1) });
      const open = await createConversation(store(), a.id, { status: 'UNRESOLVED', createdAt: at(2) });
      expect(await store().conversations.bulkUpdateStatus(a.id, {}, 'RESOLVED', at(30))).toBe(2);
      expect((await store().conversations.find(a.id, resolved.id))?.updatedAt).toBe(at(1));
      expect((await store().conversations.find(a.id, open.id))?.updatedAt).toBe(at(30));
    });
  });

  describe('listing', () => {
    it('lists the most recently active first, the id deciding between equal times', async () => {
      const [a] = await twoWorkspaces(store());
      const [c1, c2, c3, c4] = [newId(), newId(), newId(), newId()];
      await createConversation(store(), a.id, { id: c1, createdAt: at(1) });
      await createConversation(store(), a.id, { id: c2, createdAt: at(5) });
      await createConversation(store(), a.id, { id: c3, createdAt: at(5) });
      await createConversation(store(), a.id, { id: c4, createdAt: at(3) });
      await store().conversations.appendMessage(messageRecord(a.id, c1, { createdAt: at(9) }));
      expect(idsOf(await store().conversations.list(a.id))).toEqual([c1, c3, c2, c4]);
    });

    it('narrows by agent, channel, external id and creation time (bounds included)', async () => {
      const [a] = await twoWorkspaces(store());
      const agent = agentRecord(a.id);
      await store().agents.create(agent);
      const first = await createConversation(store(), a.id, { agentId: agent.id, channel: 'website', channelExternalId: 'x-1', createdAt: at(10) });
      const second = await createConversation(store(), a.id, { channel: 'website', channelExternalId: 'x-2', createdAt: at(20) });
      const third = await createConversation(store(), a.id, { agentId: agent.id, channel: 'api', createdAt: at(30) });
      const list = async (filter: ConversationFilter) => idsOf(await store().conversations.list(a.id, filter));
      expect(await list({ agentId: agent.id })).toEqual([third.id, first.id]);
      expect(await list({ channel: 'website' })).toEqual([second.id, first.id]);
      expect(await list({ channelExternalId: 'x-2' })).toEqual([second.id]);
      expect(await list({ createdFrom: at(20) })).toEqual([third.id, second.id]);
      expect(await list({ createdTo: at(20) })).toEqual([second.id, first.id]);
      expect(await list({ createdFrom: at(11), createdTo: at(29) })).toEqual([second.id]);
      expect(await list({ agentId: agent.id, channel: 'website' })).toEqual([first.id]);
    });

    it('searches titles, contact names, e-mails, phone numbers and message texts, ignoring case', async () => {
      const [a] = await twoWorkspaces(store());
      const contact = await store().participants.upsertContact(
        a.id,
        newId(),
        { firstName: 'Grace', lastName: 'Hopper', email: 'grace@navy.example', phoneNumber: '+1 555 0100' },
        at(0),
      );
      const titled = await createConversation(store(), a.id, { title: 'Broken Compiler', createdAt: at(1) });
      const withContact = await createConversation(store(), a.id, { contactId: contact.id, createdAt: at(2) });
      const withMessage = await createConversation(store(), a.id, { createdAt: at(3) });
      await store().conversations.appendMessage(
        messageRecord(a.id, withMessage.id, { from: 'agent', text: 'Your REFUND is on its way', createdAt: at(4) }),
      );
      await createConversation(store(), a.id, { title: 'Unrelated', createdAt: at(5) });
      const search = async (term: string) => idsOf(await store().conversations.list(a.id, { search: term }));
      expect(await search('compiler')).toEqual([titled.id]);
      expect(await search('grace hop')).toEqual([withContact.id]);
      expect(await search('NAVY.example')).toEqual([withContact.id]);
      expect(await search('555 01')).toEqual([withContact.id]);
      expect(await search('refund')).toEqual([withMessage.id]);
      expect(await search('nothing like this')).toEqual([]);
    });

    it('takes % and _ in a search term literally', async () => {
      const [a] = await twoWorkspaces(store());
      const percent = await createConversation(store(), a.id, { title: '100% sure' });
      const underscore = await createConversation(store(), a.id, { title: 'snake_case names' });
      await createConversation(store(), a.id, { title: '1000 sure, snakeXcase' });
      expect(idsOf(await store().conversations.list(a.id, { search: '0% s' }))).toEqual([percent.id]);
      expect(idsOf(await store().conversations.list(a.id, { search: 'e_c' }))).toEqual([underscore.id]);
      expect(idsOf(await store().conversations.list(a.id, { search: '\\' }))).toEqual([]);
    });

    it('does not find a conversation by another workspace’s messages in a conversation of the same id', async () => {
      const [a, b] = await twoWorkspaces(store());
      const mine = await createConversation(store(), a.id);
      await createConversation(store(), b.id, { id: mine.id });
      await store().conversations.appendMessage(messageRecord(b.id, mine.id, { text: 'secret phrase of b' }));
      expect(await store().conversations.list(a.id, { search: 'secret phrase' })).toEqual([]);
      expect(idsOf(await store().conversations.list(b.id, { search: 'secret phrase' }))).toEqual([mine.id]);
    });

    it('pages through the list by key without skipping or repeating a conversation, ties included', async () => {
      const [a] = await twoWorkspaces(store());
      const statuses: ConversationStatus[] = ['UNRESOLVED', 'RESOLVED'];
      for (let n = 0; n < 7; n += 1) {
        // Three share one activity time: the key's id decides where the next page starts.
        await createConversation(store(), a.id, { createdAt: at(n < 3 ? 100 : n), status: statuses[n % 2]!, channel: n === 6 ? 'api' : 'website' });
      }
      const all = await store().conversations.list(a.id);
      const seen: string[] = [];
      let after: { updatedAt: string; id: string } | undefined;
      for (;;) {
        const page = await store().conversations.list(a.id, {}, { limit: 2, after });
        seen.push(...idsOf(page));
        const last = page.at(-1);
        if (page.length < 2 || last === undefined) break;
        after = { updatedAt: last.updatedAt, id: last.id };
      }
      expect(seen).toEqual(idsOf(all));
      const websites = await store().conversations.list(
        a.id,
        { channel: 'website' },
        { limit: 10, after: { updatedAt: all[1]!.updatedAt, id: all[1]!.id } },
      );
      expect(idsOf(websites)).toEqual(idsOf(all.slice(2)).filter((id) => all.find((c) => c.id === id)?.channel === 'website'));
    });
  });
});
