import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import type { MessageRecord, NewMessage } from '../../src/store/store.js';
import { at, createConversation, messageRecord, twoWorkspaces, useScratchStore } from '../support/store-contract.js';
import { STORE_KINDS } from '../support/stores.js';

describe.each(STORE_KINDS)('the messages port of the %s store', (kind) => {
  const store = useScratchStore(kind);

  /** Appends through the conversation, as every message is written. */
  async function append(workspaceId: string, conversationId: string, overrides: Partial<NewMessage> = {}): Promise<MessageRecord> {
    const appended = await store().conversations.appendMessage(messageRecord(workspaceId, conversationId, overrides));
    if (appended === undefined) throw new Error(`conversation ${conversationId} is not in workspace ${workspaceId}`);
    return appended.message;
  }

  const texts = (messages: MessageRecord[]) => messages.map((message) => message.text);

  it('reads a message only in its own workspace, and tells another workspace’s message from none', async () => {
    const [a, b] = await twoWorkspaces(store());
    const conversation = await createConversation(store(), a.id);
    const message = await append(a.id, conversation.id, {
      attachments: [{ name: 'photo.png' }],
      visitorId: 'visitor-1',
      read: true,
    });
    expect(await store().messages.find(a.id, message.id)).toEqual(message);
    expect(await store().messages.find(b.id, message.id)).toBeUndefined();
    expect(await store().messages.ownerOf(message.id)).toBe(a.id);
    expect(await store().messages.ownerOf(newId())).toBeUndefined();
  });

  it('lists the messages of several conversations oldest first, the id deciding between equal times', async () => {
    const [a] = await twoWorkspaces(store());
    const one = await createConversation(store(), a.id);
    const two = await createConversation(store(), a.id);
    const other = await createConversation(store(), a.id);
    const [early, tieFirst, tieSecond] = [newId(), newId(), newId()];
    await append(a.id, two.id, { id: tieSecond, text: 'tie second', createdAt: at(20) });
    await append(a.id, one.id, { id: tieFirst, text: 'tie first', createdAt: at(20) });
    await append(a.id, one.id, { id: early, text: 'early', createdAt: at(10) });
    await append(a.id, other.id, { text: 'not asked for', createdAt: at(15) });
    await append(a.id, two.id, { text: 'late', createdAt: at(30) });
    expect(texts(await store().messages.listByConversations(a.id, [one.id, two.id]))).toEqual(['early', 'tie first', 'tie second', 'late']);
    expect(await store().messages.listByConversations(a.id, [])).toEqual([]);
  });

  it('lists only each conversation’s latest messages when asked, still oldest first', async () => {
    const [a] = await twoWorkspaces(store());
    const one = await createConversation(store(), a.id);
    const two = await createConversation(store(), a.id);
    for (let n = 1; n <= 4; n += 1) await append(a.id, one.id, { text: `one ${n}`, createdAt: at(n * 10) });
    await append(a.id, two.id, { text: 'two 1', createdAt: at(5) });
    const latest = await store().messages.listByConversations(a.id, [one.id, two.id], { latest: 2 });
    expect(texts(latest)).toEqual(['two 1', 'one 3', 'one 4']);
    expect(texts(await store().messages.listByConversations(a.id, [one.id], { latest: 1 }))).toEqual(['one 4']);
  });

  it('never lists another workspace’s messages, even of a conversation with the same id', async () => {
    const [a, b] = await twoWorkspaces(store());
    const mine = await createConversation(store(), a.id);
    await createConversation(store(), b.id, { id: mine.id });
    await append(a.id, mine.id, { text: 'for a' });
    await append(b.id, mine.id, { text: 'for b' });
    expect(texts(await store().messages.listByConversations(a.id, [mine.id]))).toEqual(['for a']);
    expect(texts(await store().messages.listByConversations(b.id, [mine.id], { latest: 5 }))).toEqual(['for b']);
  });

  it('sets and clears a message’s rating', async () => {
    const [a] = await twoWorkspaces(store());
    const conversation = await createConversation(store(), a.id);
    const message = await append(a.id, conversation.id, { from: 'agent' });
    expect(await store().messages.rate(a.id, message.id, 'BAD')).toEqual({ ...message, eval: 'BAD' });
    expect((await store().messages.find(a.id, message.id))?.eval).toBe('BAD');
    expect(await store().messages.rate(a.id, message.id, null)).toEqual({ ...message, eval: null });
  });

  it('does not rate another workspace’s message', async () => {
    const [a, b] = await twoWorkspaces(store());
    const conversation = await createConversation(store(), a.id);
    const message = await append(a.id, conversation.id, { from: 'agent' });
    await store().messages.rate(a.id, message.id, 'GOOD');
    expect(await store().messages.rate(b.id, message.id, 'BAD')).toBeUndefined();
    expect(await store().messages.rate(a.id, newId(), 'BAD')).toBeUndefined();
    expect((await store().messages.find(a.id, message.id))?.eval).toBe('GOOD');
  });

  it('counts the agent answers the workspace received since a time, that time included', async () => {
    const [a, b] = await twoWorkspaces(store());
    const conversation = await createConversation(store(), a.id);
    await append(a.id, conversation.id, { from: 'agent', createdAt: at(99) });
    await append(a.id, conversation.id, { from: 'agent', createdAt: at(100) });
    await append(a.id, conversation.id, { from: 'agent', createdAt: at(150) });
    await append(a.id, conversation.id, { from: 'human', createdAt: at(160) });
    await append(a.id, conversation.id, { from: 'system', createdAt: at(170) });
    const elsewhere = await createConversation(store(), b.id);
    await append(b.id, elsewhere.id, { from: 'agent', createdAt: at(200) });
    expect(await store().messages.countAgentAnswersSince(a.id, at(100))).toBe(2);
    expect(await store().messages.countAgentAnswersSince(a.id, at(151))).toBe(0);
    expect(await store().messages.countAgentAnswersSince(b.id, at(0))).toBe(1);
  });
});
