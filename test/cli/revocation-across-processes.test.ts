import { afterAll, describe, expect, it } from 'vitest';
import type { IssuedKeyBody, MemberBody } from '../support/bodies.js';
import { callParley, type TestParley } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS, createScratchStore, type ScratchStore } from '../support/stores.js';
import { startServeProcess, type ServeProcess } from '../support/worker-process.js';

/**
 * Revocation reaches every process at once: a person removed, demoted or signed out in one
 * process, or a key deleted, is refused by another `parley serve` on the same store with the very next
 * request, though the other process checks tokens against its in-memory table and keeps the keys it has
 * read (PostgreSQL: NOTIFY; SQLite: the data version).
 */
describe.each(STORE_KINDS)('revocation across processes on %s', (kind) => {
  let scratch: ScratchStore;
  let here: TestParley;
  let there: ServeProcess;

  parleyTest.beforeAll(async ({ startParley }) => {
    scratch = await createScratchStore(kind);
    here = await startParley(kind, { scratch });
    there = await startServeProcess(scratch.env);
  });
  afterAll(async () => {
    await there?.stop();
    await here?.close();
    await scratch?.drop();
  });

  it('refuses in the other process, with the next request, the token of someone removed, demoted or signed out here', async () => {
    const ws = await here.newWorkspace();
    const idOf = async (email: string) =>
      (await here.call<MemberBody[]>('GET', '/members', { key: ws.key })).body.find((row) => row.email === email)!.id;
    const thereStatus = async (path: string, token: string) => (await callParley(there.url, 'GET', path, { key: token })).status;

    for (let round = 0; round < 3; round++) {
      const removed = await here.newMember(ws.id, 'member');
      const demoted = await here.newMember(ws.id, 'admin');
      const leaving = await here.newMember(ws.id, 'member');
      // The other process has read all three tokens' people before the change.
      expect(await thereStatus('/agents', removed.accessToken)).toBe(200);
      expect(await thereStatus('/webhooks', demoted.accessToken)).toBe(200);
      expect(await thereStatus('/agents', leaving.accessToken)).toBe(200);

      expect((await here.call('DELETE', `/members/${await idOf(removed.email)}`, { key: ws.key })).status).toBe(200);
      expect(await thereStatus('/agents', removed.accessToken)).toBe(401);

      expect((await here.call('PATCH', `/members/${await idOf(demoted.email)}`, { key: ws.key, body: { role: 'member' } })).status).toBe(200);
      expect(await thereStatus('/webhooks', demoted.accessToken)).toBe(401);

      await here.core.services.accounts.signOut(leaving.sessionSecret);
      expect(await thereStatus('/agents', leaving.accessToken)).toBe(401);
    }
  });

  it('refuses in the other process, with the next request, a key deleted here and the key of a maker removed here', async () => {
    const ws = await here.newWorkspace();
    const thereStatus = async (key: string) => (await callParley(there.url, 'GET', '/agents', { key })).status;
    for (let round = 0; round < 3; round++) {
      const spare = (await here.call<IssuedKeyBody>('POST', '/keys', { key: ws.key, body: {} })).body;
      const maker = await here.newMember(ws.id, 'member');
      const made = (await here.call<IssuedKeyBody>('POST', '/keys', { key: maker.accessToken, body: {} })).body;
      // The other process has read both keys (and keeps them) before the change.
      expect(await thereStatus(spare.key)).toBe(200);
      expect(await thereStatus(made.key)).toBe(200);

      expect((await here.call('DELETE', `/keys/${spare.id}`, { key: ws.key })).status).toBe(200);
      expect(await thereStatus(spare.key)).toBe(401);

      const members = (await here.call<MemberBody[]>('GET', '/members', { key: ws.key })).body;
      const makerId = members.find((row) => row.email === maker.email)!.id;
      expect((await here.call('DELETE', `/members/${makerId}`, { key: ws.key })).status).toBe(200);
      expect(await thereStatus(made.key)).toBe(401);
    }
  });
});
