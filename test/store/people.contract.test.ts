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
});
