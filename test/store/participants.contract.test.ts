import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { at, twoWorkspaces, useScratchStore } from '../support/store-contract.js';
import { STORE_KINDS } from '../support/stores.js';

describe.each(STORE_KINDS)('the participants port of the %s store', (kind) => {
  const store = useScratchStore(kind);

  const email = () => `${newId()}@example.com`;

  describe('visitors', () => {
    it('creates a visitor the first time its id is seen and returns the same one afterwards', async () => {
      const [a] = await twoWorkspaces(store());
      const id = `visitor-${newId()}`;
      const created = await store().participants.ensureVisitor(a.id, id, null, at(1));
      expect(created).toEqual({ id, workspaceId: a.id, contactId: null, createdAt: at(1), updatedAt: at(1) });
      expect(await store().participants.ensureVisitor(a.id, id, null, at(2))).toEqual(created);
      expect(await store().participants.visitors(a.id, [id])).toEqual([created]);
    });

    it('links a visitor to the contact given, and keeps the link when none is given', async () => {
      const [a] = await twoWorkspaces(store());
      const contact = await store().participants.upsertContact(a.id, newId(), { email: email() }, at(0));
      const id = newId();
      await store().participants.ensureVisitor(a.id, id, null, at(1));
      expect(await store().participants.ensureVisitor(a.id, id, contact.id, at(2))).toMatchObject({
        contactId: contact.id,
        createdAt: at(1),
        updatedAt: at(2),
      });
      expect(await store().participants.ensureVisitor(a.id, id, null, at(3))).toMatchObject({ contactId: contact.id });
      const linkedAtOnce = await store().participants.ensureVisitor(a.id, newId(), contact.id, at(4));
      expect(linkedAtOnce.contactId).toBe(contact.id);
    });

    it('keeps visitors of the same id in two workspaces apart', async () => {
      const [a, b] = await twoWorkspaces(store());
      const contact = await store().participants.upsertContact(a.id, newId(), { email: email() }, at(0));
      const id = newId();
      const mine = await store().participants.ensureVisitor(a.id, id, contact.id, at(1));
      const theirs = await store().participants.ensureVisitor(b.id, id, null, at(2));
      expect(theirs).toEqual({ id, workspaceId: b.id, contactId: null, createdAt: at(2), updatedAt: at(2) });
      expect(await store().participants.visitors(a.id, [id])).toEqual([mine]);
      expect(await store().participants.visitors(b.id, [id])).toEqual([theirs]);
    });

    it('reads the visitors asked for, of the workspace only', async () => {
      const [a, b] = await twoWorkspaces(store());
      const [one, two, three] = [newId(), newId(), newId()];
      for (const id of [one, two, three]) await store().participants.ensureVisitor(a.id, id, null, at(0));
      const found = await store().participants.visitors(a.id, [one, three, newId()]);
      expect(found.map((visitor) => visitor.id).sort()).toEqual([one, three].sort());
      expect(await store().participants.visitors(b.id, [one, two])).toEqual([]);
      expect(await store().participants.visitors(a.id, [])).toEqual([]);
    });
  });

  describe('contacts', () => {
    it('creates a contact for a new e-mail', async () => {
      const [a] = await twoWorkspaces(store());
      const id = newId();
      const address = email();
      const contact = await store().participants.upsertContact(a.id, id, { firstName: 'Ada', email: address }, at(1));
      expect(contact).toEqual({
        id,
        workspaceId: a.id,
        firstName: 'Ada',
        lastName: null,
        email: address,
        phoneNumber: null,
        createdAt: at(1),
        updatedAt: at(1),
      });
      expect(await store().participants.contacts(a.id, [id])).toEqual([contact]);
    });

    it('updates the contact of a known e-mail with the fields given, keeping its id and the other fields', async () => {
      const [a] = await twoWorkspaces(store());
      const address = email();
      const first = await store().participants.upsertContact(a.id, newId(), { firstName: 'Ada', lastName: 'Lovelace', email: address }, at(1));
      const second = await store().participants.upsertContact(
        a.id,
        newId(),
        { email: address, phoneNumber: '+44 20 7946 0000', firstName: 'Augusta' },
        at(2),
      );
      expect(second).toEqual({ ...first, firstName: 'Augusta', phoneNumber: '+44 20 7946 0000', updatedAt: at(2) });
      expect(await store().participants.contacts(a.id, [first.id])).toEqual([second]);
    });

    it('creates one contact when two requests give the same new e-mail at once', async () => {
      const [a] = await twoWorkspaces(store());
      const address = email();
      const contacts = await Promise.all(
        ['Ada', 'Grace', 'Alan'].map((firstName) => store().participants.upsertContact(a.id, newId(), { firstName, email: address }, at(1))),
      );
      expect(new Set(contacts.map((contact) => contact.id)).size).toBe(1);
    });

    it('creates a new contact each time when no e-mail is given', async () => {
      const [a] = await twoWorkspaces(store());
      const one = await store().participants.upsertContact(a.id, newId(), { phoneNumber: '+1 555 0100' }, at(1));
      const two = await store().participants.upsertContact(a.id, newId(), { phoneNumber: '+1 555 0100' }, at(2));
      expect(one.id).not.toBe(two.id);
      expect(await store().participants.contacts(a.id, [one.id, two.id])).toHaveLength(2);
    });

    it('keeps contacts of the same e-mail in two workspaces apart', async () => {
      const [a, b] = await twoWorkspaces(store());
      const address = email();
      const mine = await store().participants.upsertContact(a.id, newId(), { firstName: 'Mine', email: address }, at(1));
      const theirs = await store().participants.upsertContact(b.id, newId(), { firstName: 'Theirs', email: address }, at(2));
      expect(theirs.id).not.toBe(mine.id);
      expect(theirs.workspaceId).toBe(b.id);
      expect(await store().participants.contacts(a.id, [mine.id])).toEqual([mine]);
      expect(await store().participants.contacts(b.id, [mine.id])).toEqual([]);
    });
  });
});
