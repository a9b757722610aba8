import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigratedFrom, type MigratedStore } from '../support/migrations.js';
import { STORE_KINDS } from '../support/stores.js';

const AT = '2026-01-01T00:00:00.000Z';
const LATER = '2026-01-01T01:00:00.000Z';

describe.each(STORE_KINDS)('migration 014: playground marker and status history, on %s', (kind) => {
  let migrated: MigratedStore;

  beforeAll(async () => {
    migrated = await openMigratedFrom(kind, '012-interrupted-answers', async (db) => {
      // A store of the previous release: one conversation waiting for a person, one resolved, one open.
      await sql`insert into workspace (id, name, created_at) values ('ws_a', 'A', ${AT})`.execute(db);
      for (const [id, status] of [
        ['c_waiting', 'HUMAN_REQUESTED'],
        ['c_resolved', 'RESOLVED'],
        ['c_open', 'UNRESOLVED'],
      ] as const) {
        await sql`insert into conversation (id, workspace_id, channel, status, is_ai_enabled, title, metadata, created_at, updated_at)
          values (${id}, 'ws_a', 'dashboard', ${status}, 1, '', '{}', ${AT}, ${LATER})`.execute(db);
      }
    });
  }, 60_000);
  afterAll(() => migrated.close());

  it('takes the older conversations as no playground ones, their status now as their history', async () => {
    const { store } = migrated;
    expect((await store.conversations.list('ws_a')).map((conversation) => conversation.playground)).toEqual([false, false, false]);
    expect(await store.conversations.list('ws_a', { playground: false })).toHaveLength(3);
    const scope = { workspaceId: 'ws_a', from: AT, to: '2026-01-02T00:00:00.000Z' };
    expect(await store.analytics.conversationFigures(scope)).toMatchObject({ conversations: 3, humanRequested: 1, resolved: 1 });
    // A change after the migration adds to the history: the one waiting is resolved and still counts.
    await store.conversations.update('ws_a', 'c_waiting', { status: 'RESOLVED' }, {}, LATER);
    expect(await store.analytics.conversationFigures(scope)).toMatchObject({ humanRequested: 1, resolved: 2 });
  });
});
