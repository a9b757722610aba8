import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { at, createConversation, labelRecord, messageRecord, savedReplyRecord, twoWorkspaces, useScratchStore } from '../support/store-contract.js';
import { STORE_KINDS } from '../support/stores.js';

describe.each(STORE_KINDS)('the inbox basics of the %s store', (kind) => {
  const store = useScratchStore(kind);

  describe('saved replies', () => {
    it('reads back, lists by shortcut, finds by shortcut, updates and deletes, in their workspace only', async () => {
      const [a, b] = await twoWorkspaces(store());
      const refund = savedReplyRecord(a.id, { shortcut: 'refund' });
      const address = savedReplyRecord(a.id, { shortcut: 'address', createdAt: at(5), updatedAt: at(5) });
      for (const reply of [refund, address]) await store().savedReplies.create(reply);
      expect(await store().savedReplies.find(a.id, refund.id)).toEqual(refund);
      expect(await store().savedReplies.list(a.id)).toEqual([address, refund]);
      expect(await store().savedReplies.findByShortcut(a.id, 'refund')).toEqual(refund);
      expect(await store().savedReplies.findByShortcut(b.id, 'refund')).toBeUndefined();
      expect(await store().savedReplies.list(b.id)).toEqual([]);
      expect(await store().savedReplies.ownerOf(refund.id)).toBe(a.id);

      expect(await store().savedReplies.update(b.id, refund.id, { text: 'stolen' }, at(9))).toBeUndefined();
      expect(await store().savedReplies.delete(b.id, refund.id)).toBeUndefined();
      const changed = { ...refund, text: 'Five days.', updatedAt: at(10) };
      expect(await store().savedReplies.update(a.id, refund.id, { text: 'Five days.' }, at(10))).toEqual(changed);
      expect(await store().savedReplies.delete(a.id, refund.id)).toEqual(changed);
      expect(await store().savedReplies.find(a.id, refund.id)).toBeUndefined();
    });

    it('keeps a shortcut unique per workspace', async () => {
      const [a, b] = await twoWorkspaces(store());
      await store().savedReplies.create(savedReplyRecord(a.id, { shortcut: 'hello' }));
      await store().savedReplies.create(savedReplyRecord(b.id, { shortcut: 'hello' }));
      await expect(store().savedReplies.create(savedReplyRecord(a.id, { shortcut: 'hello' }))).rejects.toThrow();
    });
  });

  describe('labels', () => {
    it('reads back, lists by name, renames, and keeps names unique per workspace', async () => {
      const [a, b] = await twoWorkspaces(store());
      const vip = labelRecord(a.id, { name: 'VIP' });
      const billing = labelRecord(a.id, { name: 'Billing' });
      for (const label of [vip, billing]) await store().labels.create(label);
      expect(await store().labels.list(a.id)).toEqual([billing, vip]);
      expect(await store().labels.findByName(a.id, 'VIP')).toEqual(vip);
      expect(await store().labels.findByName(b.id, 'VIP')).toBeUndefined();
      await expect(store().labels.create(labelRecord(a.id, { name: 'VIP' }))).rejects.toThrow();
      expect(await store().labels.update(b.id, vip.id, { name: 'Stolen' }, at(3))).toBeUndefined();
      expect(await store().labels.update(a.id, vip.id, { color: '#000000' }, at(3))).toEqual({ ...vip, color: '#000000', updatedAt: at(3) });
    });

    it('attaches and detaches labels, once each, in the workspace; the list filters by them; deleting one takes it off', async () => {
      const [a, b] = await twoWorkspaces(store());
      const urgent = labelRecord(a.id, { name: 'Urgent' });
      const billing = labelRecord(a.id, { name: 'Billing' });
      for (const label of [urgent, billing]) await store().labels.create(label);
      const one = await createConversation(store(), a.id);
      const two = await createConversation(store(), a.id);
      const bOwn = await createConversation(store(), b.id);

      expect(await store().labels.attach(a.id, [one.id, two.id], [urgent.id, billing.id], at(1))).toBe(4);
      expect(await store().labels.attach(a.id, [one.id], [urgent.id], at(2))).toBe(0);
      const labels = await store().labels.labelsOf(a.id, [one.id, two.id, bOwn.id]);
      expect(labels.get(one.id)?.map((label) => label.name)).toEqual(['Billing', 'Urgent']);
      expect(labels.has(bOwn.id)).toBe(false);
      expect(await store().labels.labelsOf(b.id, [one.id])).toEqual(new Map());

      expect(await store().labels.detach(b.id, [one.id], [urgent.id])).toBe(0);
      expect(await store().labels.detach(a.id, [one.id], [urgent.id])).toBe(1);
      const withUrgent = await store().conversations.list(a.id, { labelId: urgent.id });
      expect(withUrgent.map((conversation) => conversation.id)).toEqual([two.id]);
      expect(await store().conversations.list(b.id, { labelId: urgent.id })).toEqual([]);
      const counted = await store().conversations.countGroups(a.id, { labelId: billing.id }, { all: {} }, { read: false });
      expect(counted.all?.total).toBe(2);

      await store().labels.delete(a.id, billing.id);
      expect((await store().labels.labelsOf(a.id, [one.id])).get(one.id)).toBeUndefined();
    });
  });

  describe('messages and conversations', () => {
    it('stores private notes, matches them, and finds each conversation’s first matching message', async () => {
      const [a] = await twoWorkspaces(store());
      const conversation = await createConversation(store(), a.id);
      const note = messageRecord(a.id, conversation.id, { memberId: null, text: 'A note', read: true, private: true, createdAt: at(10) });
      const question = messageRecord(a.id, conversation.id, { text: 'The question', createdAt: at(20) });
      const later = messageRecord(a.id, conversation.id, { text: 'Later', createdAt: at(30) });
      for (const message of [note, question, later]) await store().conversations.appendMessage(message);

      const [readNote, readQuestion] = await store().messages.listByConversations(a.id, [conversation.id]);
      expect(readNote).toMatchObject({ id: note.id, private: true });
      expect(readQuestion).toMatchObject({ id: question.id, private: false });
      const notes = await store().messages.countMatching(a.id, [conversation.id], { private: true });
      expect(notes.get(conversation.id)).toBe(1);
      const first = await store().messages.firstMatching(a.id, [conversation.id, newId()], { from: 'human', private: false });
      expect([...first.keys()]).toEqual([conversation.id]);
      expect(first.get(conversation.id)?.text).toBe('The question');
      expect(await store().messages.firstMatching(a.id, [], {})).toEqual(new Map());
    });

    it('keeps a new conversation’s visitor context and filters by visitor', async () => {
      const [a] = await twoWorkspaces(store());
      const context = { pageUrl: 'https://shop.example/', language: 'de-DE', userAgent: 'Mozilla/5.0' };
      const visitorId = newId();
      await store().participants.ensureVisitor(a.id, visitorId, null, at(0));
      const withContext = await createConversation(store(), a.id, { visitorContext: context, visitorId });
      expect(withContext.visitorContext).toEqual(context);
      expect((await store().conversations.find(a.id, withContext.id))?.visitorContext).toEqual(context);
      const without = await createConversation(store(), a.id);
      expect(without.visitorContext).toBeNull();
      expect((await store().conversations.list(a.id, { visitorId })).map((conversation) => conversation.id)).toEqual([withContext.id]);
    });
  });
});
