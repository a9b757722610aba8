import { describe, expect, it } from 'vitest';
import type { TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import { detailFields, type ApiKeyBody, type ErrorBody, type IssuedKeyBody, type MemberBody } from '../support/bodies.js';

describe.each(STORE_KINDS)('API keys on %s', (kind) => {
  let parley: TestParley;
  let ws: Workspace;

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind);
    ws = await parley.newWorkspace();
  });

  it('shows a new key once, lists only prefixes, and the new key works', async () => {
    const created = await parley.call<IssuedKeyBody>('POST', '/keys', { key: ws.key, body: { name: 'CI' } });
    expect(created.status).toBe(200);
    const secret: string = created.body.key;
    expect(secret).toMatch(/^pk_live_[A-Za-z0-9_-]{32}$/);
    expect(secret.startsWith(created.body.prefix)).toBe(true);

    const listed = await parley.call<ApiKeyBody[]>('GET', '/keys', { key: secret });
    expect(listed.status).toBe(200);
    expect(listed.body.map((key: { id: string }) => key.id)).toContain(created.body.id);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    for (const key of listed.body) expect(Object.keys(key).sort()).toEqual(['createdAt', 'createdBy', 'id', 'lastUsedAt', 'name', 'prefix']);
  });

  it('records when a key was last used', async () => {
    const fresh = await parley.newWorkspace();
    await parley.call('GET', '/agents', { key: fresh.key });
    const [key] = (await parley.call<ApiKeyBody[]>('GET', '/keys', { key: fresh.key })).body;
    expect(Date.parse(key!.lastUsedAt!)).not.toBeNaN();
  });

  it('stores keys only as hashes', async () => {
    const fresh = await parley.newWorkspace();
    const rows = await parley.core.store.apiKeys.list(fresh.id);
    expect(JSON.stringify(rows)).not.toContain(fresh.key);
    expect(await parley.core.store.apiKeys.findByHash(fresh.key)).toBeUndefined();
  });

  it('deletes a key, after which it no longer authenticates', async () => {
    const fresh = await parley.newWorkspace();
    const second = (await parley.call<IssuedKeyBody>('POST', '/keys', { key: fresh.key, body: {} })).body;
    // Used once, so the process keeps it: deleting must still end it with the next request.
    expect((await parley.call('GET', '/agents', { key: second.key })).status).toBe(200);
    const deleted = await parley.call<ApiKeyBody>('DELETE', `/keys/${second.id}`, { key: fresh.key });
    expect(deleted.status).toBe(200);
    expect(deleted.body.id).toBe(second.id);
    const refused = await parley.call<ErrorBody>('GET', '/agents', { key: second.key });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('UNAUTHORIZED');
  });

  it('gives a key its maker’s role as it is now: fewer rights once demoted, none once removed', async () => {
    const fresh = await parley.newWorkspace();
    const admin = await parley.newMember(fresh.id, 'admin');
    const made = (await parley.call<IssuedKeyBody>('POST', '/keys', { key: admin.accessToken, body: {} })).body;
    expect((await parley.call('GET', '/webhooks', { key: made.key })).status).toBe(200);
    const members = (await parley.call<MemberBody[]>('GET', '/members', { key: fresh.key })).body;
    const memberId = members.find((member) => member.email === admin.email)!.id;

    expect((await parley.call('PATCH', `/members/${memberId}`, { key: fresh.key, body: { role: 'member' } })).status).toBe(200);
    expect((await parley.call('GET', '/webhooks', { key: made.key })).status).toBe(403);
    expect((await parley.call('GET', '/agents', { key: made.key })).status).toBe(200);

    expect((await parley.call('DELETE', `/members/${memberId}`, { key: fresh.key })).status).toBe(200);
    expect((await parley.call('GET', '/agents', { key: made.key })).status).toBe(401);
  });

  it('refuses to delete the workspace’s last key with 409', async () => {
    const fresh = await parley.newWorkspace();
    const [only] = (await parley.call<ApiKeyBody[]>('GET', '/keys', { key: fresh.key })).body;
    const refused = await parley.call<ErrorBody>('DELETE', `/keys/${only!.id}`, { key: fresh.key });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('CONFLICT');
    expect((await parley.call('GET', '/agents', { key: fresh.key })).status).toBe(200);
  });

  it('never lets concurrent deletes remove every key', async () => {
    const fresh = await parley.newWorkspace();
    await Promise.all([1, 2, 3].map(() => parley.call('POST', '/keys', { key: fresh.key, body: {} })));
    const all = (await parley.call<ApiKeyBody[]>('GET', '/keys', { key: fresh.key })).body;
    expect(all).toHaveLength(4);
    // Each delete is authenticated by a key that another delete may remove: only the outcome matters.
    const results = await Promise.all(all.map((key) => parley.call('DELETE', `/keys/${key.id}`, { key: fresh.key })));
    const remaining = await parley.core.store.apiKeys.list(fresh.id);
    expect(remaining.length).toBeGreaterThanOrEqual(1);
    expect(remaining.length).toBe(4 - results.filter((result) => result.status === 200).length);
    expect(results.every((result) => [200, 401, 409].includes(result.status))).toBe(true);
  });

  it('refuses a key name that is not a string and 404s an unknown key id', async () => {
    const bad = await parley.call<ErrorBody>('POST', '/keys', { key: ws.key, body: { name: 7 } });
    expect(bad.status).toBe(400);
    expect(detailFields(bad.body)[0]).toBe('body.name');
    const missing = await parley.call('DELETE', '/keys/nope', { key: ws.key });
    expect(missing.status).toBe(404);
  });
});
