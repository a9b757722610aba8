import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { openMigratedFrom, type MigratedStore } from '../support/migrations.js';
import { STORE_KINDS } from '../support/stores.js';

describe.each(STORE_KINDS)('migration 006: members become users, on %s', (kind) => {
  let migrated: MigratedStore;
  let store: Store;

  beforeAll(async () => {
    migrated = await openMigratedFrom(kind, '005-public-agents', async (db) => {
      // The previous release's members: one person in two workspaces, one in one.
      await sql`insert into workspace (id, name, created_at) values ('ws_a', 'A', '2026-01-01T00:00:00Z'), ('ws_b', 'B', '2026-01-02T00:00:00Z')`.execute(
        db,
      );
      await sql`
        insert into member (id, workspace_id, email, name, role, created_at) values
          ('m1', 'ws_a', 'ada@example.com', 'Ada', 'owner', '2026-01-01T00:00:00Z'),
          ('m2', 'ws_b', 'ada@example.com', 'Ada L.', 'member', '2026-01-03T00:00:00Z'),
          ('m3', 'ws_a', 'bob@example.com', 'Bob', 'admin', '2026-01-04T00:00:00Z')`.execute(db);
    });
    ({ store } = migrated);
  }, 60_000);
  afterAll(() => migrated.close());

  it('makes one user without a password per e-mail, and keeps every membership with its role', async () => {
    const ada = await store.users.findByEmail('ada@example.com');
    expect(ada).toMatchObject({ name: 'Ada', passwordHash: null });
    expect((await store.users.findByEmail('bob@example.com'))?.passwordHash).toBeNull();
    expect(await store.users.anyWithPassword()).toBe(false);
    const memberships = await store.members.listByUser(ada!.id);
    expect(memberships.map(({ member }) => [member.workspaceId, member.role, member.status])).toEqual([
      ['ws_a', 'owner', 'active'],
      ['ws_b', 'member', 'active'],
    ]);
    expect((await store.members.list('ws_a')).map((member) => [member.id, member.email])).toEqual([
      ['m3', 'bob@example.com'],
      ['m1', 'ada@example.com'],
    ]);
  });
});
