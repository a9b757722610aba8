import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { asRead, at, createUser, memberOf, twoWorkspaces, useScratchStore } from '../support/store-contract.js';
import { STORE_KINDS } from '../support/stores.js';

describe.each(STORE_KINDS)('the members port of the %s store', (kind) => {
  const store = useScratchStore(kind);

  it('adds a member and reads it back with its user’s e-mail and name', async () => {
    const [a] = await twoWorkspaces(store());
    const user = await createUser(store(), { name: 'Grace' });
    const member = memberOf(a.id, user, { role: 'owner' });
    expect(await store().members.create(member)).toBe(true);
    expect(await store().members.find(a.id, member.id)).toEqual(asRead(member));
    expect(await store().members.findByUser(a.id, user.id)).toEqual(asRead(member));
  });

  it('refuses to add the same person twice to a workspace, and keeps the first', async () => {
    const [a] = await twoWorkspaces(store());
    const user = await createUser(store());
    const first = memberOf(a.id, user, { role: 'owner' });
    await store().members.create(first);
    expect(await store().members.create(memberOf(a.id, user))).toBe(false);
    expect(await store().members.list(a.id)).toEqual([asRead(first)]);
  });

  it('adds one member when the same person is added twice at once', async () => {
    const [a] = await twoWorkspaces(store());
    const user = await createUser(store());
    const added = await Promise.all([1, 2].map(() => store().members.create(memberOf(a.id, user))));
    expect(added.sort()).toEqual([false, true]);
    expect(await store().members.list(a.id)).toHaveLength(1);
  });

  it('lets one person be a member of two workspaces, and lists them oldest workspace first', async () => {
    const [a, b] = await twoWorkspaces(store());
    const user = await createUser(store());
    await store().members.create(memberOf(b.id, user, { role: 'member' }));
    await store().members.create(memberOf(a.id, user, { role: 'owner' }));
    const memberships = await store().members.listByUser(user.id);
    expect(memberships.map(({ member, workspaceName }) => [member.workspaceId, workspaceName, member.role])).toEqual([
      [a.id, a.name, 'owner'],
      [b.id, b.name, 'member'],
    ]);
  });

  it('reads a member only in its own workspace, and tells another workspace’s member from none', async () => {
    const [a, b] = await twoWorkspaces(store());
    const member = memberOf(a.id, await createUser(store()));
    await store().members.create(member);
    expect(await store().members.find(b.id, member.id)).toBeUndefined();
    expect(await store().members.list(b.id)).toEqual([]);
    expect(await store().members.ownerOf(member.id)).toBe(a.id);
    expect(await store().members.ownerOf(newId())).toBeUndefined();
  });

  it('lists a workspace’s members newest first', async () => {
    const [a] = await twoWorkspaces(store());
    const middle = memberOf(a.id, await createUser(store()), { createdAt: at(10) });
    const newest = memberOf(a.id, await createUser(store()), { createdAt: at(20) });
    const oldest = memberOf(a.id, await createUser(store()), { createdAt: at(1) });
    for (const member of [middle, newest, oldest]) await store().members.create(member);
    expect(await store().members.list(a.id)).toEqual([newest, middle, oldest].map(asRead));
  });

  it('shows an invitation as invited until it is accepted, in its own workspace only', async () => {
    const [a, b] = await twoWorkspaces(store());
    const member = memberOf(a.id, await createUser(store()), { acceptedAt: null });
    await store().members.create(member);
    expect((await store().members.find(a.id, member.id))?.status).toBe('invited');
    await store().members.accept(b.id, member.id, at(5));
    expect((await store().members.find(a.id, member.id))?.status).toBe('invited');
    await store().members.accept(a.id, member.id, at(5));
    expect((await store().members.find(a.id, member.id))?.status).toBe('active');
  });

  it('changes a role, but never demotes the last owner', async () => {
    const [a, b] = await twoWorkspaces(store());
    const owner = memberOf(a.id, await createUser(store()), { role: 'owner' });
    const admin = memberOf(a.id, await createUser(store()), { role: 'admin' });
    for (const member of [owner, admin]) await store().members.create(member);
    expect(await store().members.changeRole(a.id, owner.id, 'member')).toBe('last-owner');
    expect(await store().members.changeRole(b.id, admin.id, 'owner')).toBeUndefined();
    expect(await store().members.changeRole(a.id, admin.id, 'owner')).toMatchObject({ role: 'owner' });
    expect(await store().members.changeRole(a.id, owner.id, 'member')).toMatchObject({ role: 'member' });
    expect((await store().members.find(a.id, owner.id))?.role).toBe('member');
  });

  it('leaves an owner when two owners demote each other at once', async () => {
    const [a] = await twoWorkspaces(store());
    const first = memberOf(a.id, await createUser(store()), { role: 'owner' });
    const second = memberOf(a.id, await createUser(store()), { role: 'owner' });
    for (const member of [first, second]) await store().members.create(member);
    await Promise.all([first, second].map((member) => store().members.changeRole(a.id, member.id, 'admin')));
    expect((await store().members.list(a.id)).filter((member) => member.role === 'owner')).toHaveLength(1);
  });

  it('removes a member of the workspace and answers with it; not the last owner; another workspace’s stays', async () => {
    const [a, b] = await twoWorkspaces(store());
    const owner = memberOf(a.id, await createUser(store()), { role: 'owner' });
    const member = memberOf(a.id, await createUser(store()));
    for (const each of [owner, member]) await store().members.create(each);
    expect(await store().members.delete(b.id, member.id)).toBeUndefined();
    expect(await store().members.find(a.id, member.id)).toEqual(asRead(member));
    expect(await store().members.delete(a.id, member.id)).toEqual(asRead(member));
    expect(await store().members.find(a.id, member.id)).toBeUndefined();
    expect(await store().members.delete(a.id, member.id)).toBeUndefined();
    expect(await store().members.delete(a.id, owner.id)).toBe('last-owner');
  });
});
