import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenGenerations } from '../../src/domain/token-generations.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { createUser } from '../support/store-contract.js';
import { STORE_KINDS, createScratchStore, type ScratchStore } from '../support/stores.js';

/**
 * A process that watches the token generations as Parley's do (a listening connection named
 * `parley-auth <id>`), and says it applied each bump only after `delayMs`, or never.
 */
async function foreignWatcher(url: string, id: string, delayMs: number | 'never'): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: `parley-auth ${id}` });
  await client.connect();
  client.on('notification', ({ payload = '' }) => {
    const [userId, generation] = payload.split(' ');
    if (delayMs === 'never' || generation === undefined || userId === 'applied') return;
    // The notice can reach the revoker, and the test end this client, before the query's own answer comes back.
    const apply = () => client.query('select pg_notify($1, $2)', ['parley_auth', `applied ${id} ${userId} ${generation}`]).catch(() => undefined);
    setTimeout(() => void apply(), delayMs);
  });
  await client.query('LISTEN parley_auth');
  return client;
}

/**
 * Revocation across processes on PostgreSQL: a revocation answers once every process watching
 * has applied it, so the revoked person's next request is refused wherever it lands; a process that never
 * answers delays the answer by two seconds, never blocks it.
 */
describe.skipIf(!STORE_KINDS.includes('postgres'))('token generations across processes on postgres', () => {
  let scratch: ScratchStore;
  let here: Store;
  let there: Store;
  let revoking: TokenGenerations;
  let checking: TokenGenerations;

  beforeAll(async () => {
    scratch = await createScratchStore('postgres');
    here = await openStore(scratch.config, scratch.dataDir);
    there = await openStore(scratch.config, scratch.dataDir);
    revoking = new TokenGenerations(here.users);
    checking = new TokenGenerations(there.users);
  });
  afterAll(async () => {
    await revoking?.stop();
    await checking?.stop();
    await here?.close();
    await there?.close();
    await scratch?.drop();
  });

  it('holds the new generation in the other process as soon as the revocation answers', async () => {
    for (let round = 0; round < 20; round++) {
      const user = await createUser(here);
      expect(await checking.current(user.id)).toBe(0);
      await revoking.revoke(user.id);
      expect(await checking.current(user.id)).toBe(1);
    }
  });

  it('raises the other process’s revision for a deleted key as soon as the revocation answers', async () => {
    for (let round = 0; round < 20; round++) {
      const before = await checking.revision();
      await revoking.revokeKey(`deleted-${round}`);
      expect(await checking.revision()).toBeGreaterThan(before);
    }
  });

  it('waits for a process that applies the bump late, and answers after two seconds without one that never does', async () => {
    if (scratch.config.kind !== 'postgres') throw new Error('a PostgreSQL store');
    const late = await foreignWatcher(scratch.config.url, 'late', 600);
    try {
      const user = await createUser(here);
      const started = Date.now();
      await revoking.revoke(user.id);
      expect(Date.now() - started).toBeGreaterThanOrEqual(600);
      expect(Date.now() - started).toBeLessThan(1_900);
    } finally {
      await late.end();
    }

    const silent = await foreignWatcher(scratch.config.url, 'silent', 'never');
    try {
      const user = await createUser(here);
      const started = Date.now();
      await revoking.revoke(user.id);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
      expect(await checking.current(user.id)).toBe(1);
    } finally {
      await silent.end();
    }
  });
});
