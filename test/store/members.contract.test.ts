import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { at, memberRecord, twoWorkspaces, useScratchStore } from '../support/store-contract.js';
import { STORE_KINDS } from '../support/stores.js';

describe.each(STORE_KINDS)('the members port of the %s store', (kind) => {
  const store = useScratchStore(kind);

  it('adds a member and reads it back', async () => {
    const [a] = await twoWorkspaces(store());
    const member = memberRecord(a.id, { role: 'owner', name: 'Grace' });
    expect(await store().members.create(member)).toBe(true);
    expect(await store().members.find(a.id, member.id)).toEqual(member);
  });

  it('refuses a second member with an e-mail the workspace already has, and keeps the first', async () => {
    const [a] = await twoWorkspaces(store());
    const first = memberRecord(a.id, { email: 'ops@example.com', name: 'First' });
    await store().members.create(first);
    const second = memberRecord(a.id, { email: 'ops@example.com', name: 'Second' });
    expect(await store().members.create(second)).toBe(false);
    expect(await store().members.list(a.id)).toEqual([first]);
  });

  it('adds one member when the same e-mail is added twice at once', async () => {
    const [a] = await twoWorkspaces(store());
    const added = await Promise.all([1, 2].map(() => store().members.create(memberRecord(a.id, { email: 'race@example.com' }))));
    expect(added.sort()).toEqual([false, true]);
    expect(await store().members.list(a.id)).toHaveLength(1);
  });

  it('lets two workspaces each have a member of the same e-mail', async () => {
    const [a, b] = await twoWorkspaces(store());
    await store().members.create(memberRecord(a.id, { email: 'shared@example.com' }));
    expect(await store().members.create(memberRecord(b.id, { email: 'shared@example.com' }))).toBe(true);
  });

  it('reads a member only in its own workspace, and tells another workspace’s member from none', async () => {
    const [a, b] = await twoWorkspaces(store());
    const member = memberRecord(a.id);
    await store().members.create(member);
    expect(await store().members.find(b.id, member.id)).toBeUndefined();
    expect(await store().members.list(b.id)).toEqual([]);
    expect(await store().members.ownerOf(member.id)).toBe(a.id);
    expect(await store().members.ownerOf(newId())).toBeUndefined();
  });

  it('lists a workspace’s members newest first', async () => {
    const [a] = await twoWorkspaces(store());
    const middle = memberRecord(a.id, { createdAt: at(10) });
    const newest = memberRecord(a.id, { createdAt: at(20) });
    const oldest = memberRecord(a.id, { createdAt: at(1) });
    for (const member of [middle, newest, oldest]) await store().members.create(member);
    expect(await store().members.list(a.id)).toEqual([newest, middle, oldest]);
  });

  it('removes a member of the workspace and answers with it; another workspace’s member stays', async () => {
    const [a, b] = await twoWorkspaces(store());
    const member = memberRecord(a.id);
    await store().members.create(member);
    expect(await store().members.delete(b.id, member.id)).toBeUndefined();
    expect(await store().members.find(a.id, member.id)).toEqual(member);
    expect(await store().members.delete(a.id, member.id)).toEqual(member);
    expect(await store().members.find(a.id, member.id)).toBeUndefined();
    expect(await store().members.delete(a.id, member.id)).toBeUndefined();
    expect(await store().members.create({ ...member, id: newId() })).toBe(true);
  });
});
