import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { at, createUser, useScratchStore } from '../support/store-contract.js';
import { STORE_KINDS } from '../support/stores.js';

describe.each(STORE_KINDS)('the users, sessions and one-time links of the %s store', (kind) => {
  const store = useScratchStore(kind);

  it('keeps one user per e-mail: ensuring an existing e-mail answers the stored user', async () => {
    const user = await createUser(store(), { name: 'First' });
    const again = await createUser(store(), { email: user.email, name: 'Second' });
    expect(again).toEqual(user);
    expect(await store().users.findByEmail(user.email)).toEqual(user);
    expect(await store().users.find(newId())).toBeUndefined();
  });

  it('sets a password and a name, and says when anyone has a password', async () => {
    const before = await store().users.anyWithPassword();
    const user = await createUser(store());
    const updated = await store().users.update(user.id, { passwordHash: 'argon2-hash', name: 'Grace' }, at(9));
    expect(updated).toMatchObject({ passwordHash: 'argon2-hash', name: 'Grace', updatedAt: at(9) });
    expect(before).toBe(false);
    expect(await store().users.anyWithPassword()).toBe(true);
    expect(await store().users.update(newId(), { name: 'nobody' }, at(9))).toBeUndefined();
  });

  it('finds a live session by its secret’s hash, lists it, and revokes it for its own user only', async () => {
    const user = await createUser(store());
    const other = await createUser(store());
    const session = { id: newId(), userId: user.id, userAgent: 'test', createdAt: at(0), lastSeenAt: at(0), revokedAt: null };
    await store().sessions.create(session, `hash-${session.id}`);
    expect(await store().sessions.findLive(`hash-${session.id}`)).toEqual(session);
    await store().sessions.touch(session.id, at(60));
    expect((await store().sessions.listLive(user.id)).map((each) => each.lastSeenAt)).toEqual([at(60)]);
    expect(await store().sessions.revoke(other.id, session.id, at(61))).toBe(false);
    expect(await store().sessions.revoke(user.id, session.id, at(61))).toBe(true);
    expect(await store().sessions.findLive(`hash-${session.id}`)).toBeUndefined();
    expect(await store().sessions.listLive(user.id)).toEqual([]);
    expect(await store().sessions.revoke(user.id, session.id, at(62))).toBe(false);
  });

  it('uses a link once, never after it expires, and only for its purpose', async () => {
    const user = await createUser(store());
    const link = { purpose: 'password-reset' as const, userId: user.id, workspaceId: null, memberId: null, createdAt: at(0), expiresAt: at(100) };
    await store().links.create(link, 'reset-hash');
    expect(await store().links.peek('reset-hash', 'invitation', at(1))).toBeUndefined();
    expect(await store().links.peek('reset-hash', 'password-reset', at(1))).toEqual(link);
    expect(await store().links.consume('reset-hash', 'password-reset', at(100))).toBeUndefined();
    const used = await Promise.all([1, 2].map(() => store().links.consume('reset-hash', 'password-reset', at(2))));
    expect(used.filter((each) => each !== undefined)).toEqual([link]);
    expect(await store().links.peek('reset-hash', 'password-reset', at(3))).toBeUndefined();
  });

  it('keeps only the newest link of a purpose and subject, and revokes all of them on demand', async () => {
    const [user, other] = [await createUser(store()), await createUser(store())];
    const reset = (userId: string, createdAt: string) => ({
      purpose: 'password-reset' as const,
      userId,
      workspaceId: null,
      memberId: null,
      createdAt,
      expiresAt: at(100),
    });
    await store().links.create(reset(user.id, at(0)), 'older');
    await store().links.create(reset(other.id, at(0)), 'other-user');
    await store().links.create(reset(user.id, at(1)), 'newer');
    expect(await store().links.peek('older', 'password-reset', at(2))).toBeUndefined();
    expect(await store().links.peek('newer', 'password-reset', at(2))).toEqual(reset(user.id, at(1)));
    expect(await store().links.peek('other-user', 'password-reset', at(2))).toBeDefined();

    const setup = (createdAt: string) => ({
      purpose: 'setup' as const,
      userId: null,
      workspaceId: null,
      memberId: null,
      createdAt,
      expiresAt: at(100),
    });
    await store().links.create(setup(at(0)), 'setup-1');
    await store().links.create(setup(at(1)), 'setup-2');
    expect(await store().links.peek('setup-1', 'setup', at(2))).toBeUndefined();
    await store().links.revokeAll('setup', { userId: null, workspaceId: null, memberId: null }, at(3));
    expect(await store().links.consume('setup-2', 'setup', at(4))).toBeUndefined();
    expect(await store().links.peek('other-user', 'password-reset', at(4))).toBeDefined();
  });

  it('revokes every session of a user but the one in use', async () => {
    const user = await createUser(store());
    const session = (id: string) => ({ id, userId: user.id, userAgent: 'test', createdAt: at(0), lastSeenAt: at(0), revokedAt: null });
    const [kept, first, second] = [newId(), newId(), newId()];
    for (const id of [kept, first, second]) await store().sessions.create(session(id), `hash-${id}`);
    await store().sessions.revokeAll(user.id, at(5), kept);
    expect((await store().sessions.listLive(user.id)).map((each) => each.id)).toEqual([kept]);
    await store().sessions.revokeAll(user.id, at(6));
    expect(await store().sessions.listLive(user.id)).toEqual([]);
  });

  it('raises a user’s token generation and lists the users whose generation is above 0', async () => {
    const [user, other] = [await createUser(store()), await createUser(store())];
    expect(user.authGeneration).toBe(0);
    expect(await store().users.bumpAuthGeneration(user.id)).toBe(1);
    expect(await store().users.bumpAuthGeneration(user.id)).toBe(2);
    expect((await store().users.find(user.id))?.authGeneration).toBe(2);
    expect(await store().users.authGenerations()).toEqual([{ userId: user.id, generation: 2 }]);
    expect((await store().users.find(other.id))?.authGeneration).toBe(0);
  });
});
