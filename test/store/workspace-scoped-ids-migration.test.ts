import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { connectBare, openMigratedFrom, type MigratedStore } from '../support/migrations.js';
import { conversationRecord } from '../support/store-contract.js';
import { STORE_KINDS, type ScratchStore } from '../support/stores.js';

const AT = '2026-01-01T00:00:00.000Z';

describe.each(STORE_KINDS)('migration 005: conversation and visitor ids per workspace, on %s', (kind) => {
  let migrated: MigratedStore;
  let scratch: ScratchStore;
  let store: Store;

  beforeAll(async () => {
    migrated = await openMigratedFrom(kind, '004-events', async (db) => {
      // What a store written by the previous release holds: a conversation with its visitor, contact and messages.
      await sql`insert into workspace (id, name, created_at) values ('ws_a', 'A', ${AT}), ('ws_b', 'B', ${AT})`.execute(db);
      await sql`insert into contact (id, workspace_id, email, created_at, updated_at) values ('ct_1', 'ws_a', 'jane@example.com', ${AT}, ${AT})`.execute(
        db,
      );
      await sql`insert into visitor (id, workspace_id, contact_id, created_at, updated_at) values ('visitor-1', 'ws_a', 'ct_1', ${AT}, ${AT})`.execute(
        db,
      );
      await sql`
        insert into conversation (id, workspace_id, agent_id, channel, channel_external_id, status, is_ai_enabled, title, metadata,
          visitor_id, contact_id, created_at, updated_at)
        values ('order-1001', 'ws_a', null, 'api', 'ext-9', 'HUMAN_REQUESTED', 0, 'Refund', '{"tier":"gold"}', 'visitor-1', 'ct_1', ${AT}, ${AT})`.execute(
        db,
      );
      for (const [id, from, text] of [
        ['msg_1', 'human', 'I want a refund'],
        ['msg_2', 'agent', 'Let me check'],
      ]) {
        await sql`
          insert into message (id, workspace_id, conversation_id, "from", text, sources, eval, read, attachments, usage, model, visitor_id, created_at)
          values (${id}, 'ws_a', 'order-1001', ${from}, ${text}, '[]', null, 1, '[]', null, null, 'visitor-1', ${AT})`.execute(db);
      }
    });
    ({ scratch, store } = migrated);
  }, 60_000);
  afterAll(() => migrated.close());

  it('keeps every conversation, message, visitor and link of the previous release', async () => {
    const conversation = await store.conversations.find('ws_a', 'order-1001');
    expect(conversation).toMatchObject({
      channelExternalId: 'ext-9',
      status: 'HUMAN_REQUESTED',
      isAiEnabled: false,
      title: 'Refund',
      metadata: { tier: 'gold' },
      visitorId: 'visitor-1',
      contactId: 'ct_1',
    });
    const messages = await store.messages.listByConversations('ws_a', ['order-1001']);
    expect(messages.map((message) => message.text)).toEqual(['I want a refund', 'Let me check']);
    expect(await store.participants.visitors('ws_a', ['visitor-1'])).toMatchObject([{ contactId: 'ct_1' }]);
  });

  it('lets another workspace use the same conversation and visitor ids as its own', async () => {
    const visitor = await store.participants.ensureVisitor('ws_b', 'visitor-1', null, AT);
    expect(visitor).toMatchObject({ workspaceId: 'ws_b', contactId: null });
    const ensured = await store.conversations.ensure(conversationRecord('ws_b', { id: 'order-1001', visitorId: 'visitor-1', createdAt: AT }));
    expect(ensured).toMatchObject({ created: true, conversation: { workspaceId: 'ws_b', status: 'UNRESOLVED' } });
    expect(await store.messages.listByConversations('ws_b', ['order-1001'])).toEqual([]);
    expect((await store.conversations.find('ws_a', 'order-1001'))?.status).toBe('HUMAN_REQUESTED');
  });

  it('still deletes a conversation’s messages with it', async () => {
    const db = connectBare(scratch);
    try {
      await sql`delete from conversation where workspace_id = 'ws_a' and id = 'order-1001'`.execute(db);
      const left = await sql<{ n: number | string }>`select count(*) as n from message where workspace_id = 'ws_a'`.execute(db);
      expect(Number(left.rows[0]?.n)).toBe(0);
    } finally {
      await db.destroy();
    }
  });
});
