import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import type { ApiKeyRecord } from '../../src/store/store.js';
import { at, createUser, memberOf, twoWorkspaces, useScratchStore } from '../support/store-contract.js';
import { STORE_KINDS } from '../support/stores.js';

const keyRecord = (workspaceId: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  id: newId(),
  workspaceId,
  name: 'CI',
  prefix: 'pk_abcd',
  createdAt: at(0),
  lastUsedAt: null,
  createdBy: null,
  ...overrides,
});

const hashOf = () => `sha256-${newId()}`;

describe.each(STORE_KINDS)('the API keys port of the %s store', (kind) => {
  const store = useScratchStore(kind);

  it('finds a key by its hash whichever workspace it belongs to, and nothing by an unknown hash', async () => {
    const [a, b] = await twoWorkspaces(store());
    const keyA = keyRecord(a.id);
    const keyB = keyRecord(b.id);
    const [hashA, hashB] = [hashOf(), hashOf()];
    await store().apiKeys.create(keyA, hashA);
    await store().apiKeys.create(keyB, hashB);
    expect(await store().apiKeys.findByHash(hashA)).toEqual({ key: keyA, makerRole: null });
    expect(await store().apiKeys.findByHash(hashB)).toEqual({ key: keyB, makerRole: null });
    expect(await store().apiKeys.findByHash(hashOf())).toBeUndefined();
  });

  it('reads a key with its maker’s role in the key’s workspace now: none once the maker is no active member there', async () => {
    const [a, b] = await twoWorkspaces(store());
    const maker = await createUser(store());
    const membership = memberOf(a.id, maker, { role: 'admin' });
    await store().members.create(membership);
    await store().members.create(memberOf(b.id, maker, { role: 'owner' }));
    const key = keyRecord(a.id, { createdBy: maker.id });
    const hash = hashOf();
    await store().apiKeys.create(key, hash);
    expect(await store().apiKeys.findByHash(hash)).toEqual({ key, makerRole: 'admin' });
    await store().members.changeRole(a.id, membership.id, 'member');
    expect((await store().apiKeys.findByHash(hash))?.makerRole).toBe('member');
    await store().members.delete(a.id, membership.id);
    // Still an owner of workspace b: that gives the key nothing in a.
    expect((await store().apiKeys.findByHash(hash))?.makerRole).toBeNull();

    const invitedMaker = await createUser(store());
    await store().members.create(memberOf(a.id, invitedMaker, { acceptedAt: null }));
    const invitedKey = keyRecord(a.id, { createdBy: invitedMaker.id });
    const invitedHash = hashOf();
    await store().apiKeys.create(invitedKey, invitedHash);
    expect((await store().apiKeys.findByHash(invitedHash))?.makerRole).toBeNull();
  });

  it('reads a key only in its own workspace, and tells another workspace’s key from none', async () => {
    const [a, b] = await twoWorkspaces(store());
    const key = keyRecord(a.id);
    await store().apiKeys.create(key, hashOf());
    expect(await store().apiKeys.find(a.id, key.id)).toEqual(key);
    expect(await store().apiKeys.find(b.id, key.id)).toBeUndefined();
    expect(await store().apiKeys.list(b.id)).toEqual([]);
    expect(await store().apiKeys.ownerOf(key.id)).toBe(a.id);
    expect(await store().apiKeys.ownerOf(newId())).toBeUndefined();
  });

  it('lists a workspace’s keys newest first', async () => {
    const [a] = await twoWorkspaces(store());
    const older = keyRecord(a.id, { createdAt: at(10) });
    const newer = keyRecord(a.id, { createdAt: at(20) });
    const oldest = keyRecord(a.id, { createdAt: at(5) });
    for (const key of [older, newer, oldest]) await store().apiKeys.create(key, hashOf());
    expect((await store().apiKeys.list(a.id)).map((key) => key.id)).toEqual([newer.id, older.id, oldest.id]);
  });

  it('remembers when a key was last used', async () => {
    const [a] = await twoWorkspaces(store());
    const key = keyRecord(a.id);
    const hash = hashOf();
    await store().apiKeys.create(key, hash);
    await store().apiKeys.markUsed(key.workspaceId, key.id, at(42));
    expect((await store().apiKeys.findByHash(hash))?.key).toMatchObject({ id: key.id, lastUsedAt: at(42) });
  });

  it('deletes a key while the workspace keeps another one, and refuses to delete its last key', async () => {
    const [a] = await twoWorkspaces(store());
    const first = keyRecord(a.id);
    const second = keyRecord(a.id);
    await store().apiKeys.create(first, hashOf());
    await store().apiKeys.create(second, hashOf());
    expect(await store().apiKeys.delete(a.id, first.id)).toBe('deleted');
    expect(await store().apiKeys.delete(a.id, second.id)).toBe('last-key');
    expect((await store().apiKeys.list(a.id)).map((key) => key.id)).toEqual([second.id]);
    expect(await store().apiKeys.delete(a.id, first.id)).toBe('missing');
  });

  it('answers "missing" for another workspace’s key and leaves it in place', async () => {
    const [a, b] = await twoWorkspaces(store());
    const keysOfA = [keyRecord(a.id), keyRecord(a.id)];
    for (const key of keysOfA) await store().apiKeys.create(key, hashOf());
    await store().apiKeys.create(keyRecord(b.id), hashOf());
    await store().apiKeys.create(keyRecord(b.id), hashOf());
    expect(await store().apiKeys.delete(b.id, keysOfA[0]!.id)).toBe('missing');
    expect(await store().apiKeys.find(a.id, keysOfA[0]!.id)).toEqual(keysOfA[0]);
  });

  it('never deletes both of a workspace’s last two keys when both deletes run at once', async () => {
    const [a] = await twoWorkspaces(store());
    const keys = [keyRecord(a.id), keyRecord(a.id)];
    for (const key of keys) await store().apiKeys.create(key, hashOf());
    const outcomes = await Promise.all(keys.map((key) => store().apiKeys.delete(a.id, key.id)));
    expect(outcomes.sort()).toEqual(['deleted', 'last-key']);
    expect(await store().apiKeys.list(a.id)).toHaveLength(1);
  });
});
