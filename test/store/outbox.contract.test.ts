import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import type { NewOutboxEvent } from '../../src/store/store.js';
import { at, conversationRecord, outboxEvent, twoWorkspaces, useScratchStore } from '../support/store-contract.js';
import { STORE_KINDS } from '../support/stores.js';

/**
 * Every change that reports an event writes it; here a new conversation does, at its creation time.
 * Dispatch times in this file are at(1000) or later, except in the test of deleteDispatchedBefore, whose
 * cutoff lies before them: it deletes across workspaces.
 */
describe.each(STORE_KINDS)('the outbox port of the %s store', (kind) => {
  const store = useScratchStore(kind);

  async function emit(workspaceId: string, seconds: number, overrides: Partial<NewOutboxEvent> = {}): Promise<NewOutboxEvent> {
    const event = outboxEvent(workspaceId, overrides);
    await store().conversations.ensure(conversationRecord(workspaceId, { createdAt: at(seconds) }), event);
    return event;
  }

  const ids = (events: { id: string }[]) => events.map((event) => event.id);

  it('keeps an event as written, pending until dispatched', async () => {
    const [a] = await twoWorkspaces(store());
    const event = await emit(a.id, 5, { type: 'conversation.created', payload: { conversation: { id: 'c1', tags: ['a', 'b'] } } });
    expect(await store().outbox.list({ workspaceId: a.id })).toEqual([
      { ...event, seq: expect.any(Number), createdAt: at(5), dispatchedAt: null, requestId: null },
    ]);
  });

  it('lists events oldest first, the id deciding between equal times, narrowed to a workspace and a count', async () => {
    const [a, b] = await twoWorkspaces(store());
    const [tieFirst, tieSecond] = [newId(), newId()];
    const late = await emit(a.id, 30);
    await emit(a.id, 20, { id: tieSecond });
    await emit(a.id, 20, { id: tieFirst });
    const early = await emit(a.id, 10);
    const other = await emit(b.id, 15);
    expect(ids(await store().outbox.list({ workspaceId: a.id }))).toEqual([early.id, tieFirst, tieSecond, late.id]);
    expect(ids(await store().outbox.list({ workspaceId: a.id, limit: 2 }))).toEqual([early.id, tieFirst]);
    expect(ids(await store().outbox.list({ workspaceId: b.id }))).toEqual([other.id]);
  });

  it('reads a workspace’s latest events of one type, newest first', async () => {
    const [a, b] = await twoWorkspaces(store());
    const first = await emit(a.id, 50, { type: 'message.created' });
    await emit(a.id, 51, { type: 'conversation.created' });
    const second = await emit(a.id, 52, { type: 'message.created' });
    const third = await emit(a.id, 53, { type: 'message.created' });
    await emit(b.id, 54, { type: 'message.created' });
    expect(ids(await store().outbox.latest(a.id, 'message.created', 2))).toEqual([third.id, second.id]);
    expect(ids(await store().outbox.latest(a.id, 'message.created', 10))).toEqual([third.id, second.id, first.id]);
    expect(await store().outbox.latest(a.id, 'datasource.error', 10)).toEqual([]);
  });

  it('lists pending events of every workspace for the dispatcher', async () => {
    const [a, b] = await twoWorkspaces(store());
    const mine = await emit(a.id, 40);
    const theirs = await emit(b.id, 41);
    expect(ids(await store().outbox.list({ pending: true }))).toEqual(expect.arrayContaining([mine.id, theirs.id]));
  });

  it('marks an event dispatched once: pending no more, and a second mark answers false', async () => {
    const [a] = await twoWorkspaces(store());
    const event = await emit(a.id, 1);
    const waiting = await emit(a.id, 2);
    expect(await store().outbox.markDispatched(event.id, at(1000))).toBe(true);
    expect(await store().outbox.markDispatched(event.id, at(2000))).toBe(false);
    expect(await store().outbox.markDispatched(newId(), at(1000))).toBe(false);
    expect(await store().outbox.list({ workspaceId: a.id, pending: false })).toEqual([
      expect.objectContaining({ id: event.id, dispatchedAt: at(1000) }),
    ]);
    expect(ids(await store().outbox.list({ workspaceId: a.id, pending: true }))).toEqual([waiting.id]);
    expect(ids(await store().outbox.list({ pending: true }))).not.toContain(event.id);
  });

  it('lets only one of two dispatchers marking the same event at once succeed', async () => {
    const [a] = await twoWorkspaces(store());
    const event = await emit(a.id, 3);
    const marks = await Promise.all([1000, 1001, 1002].map((seconds) => store().outbox.markDispatched(event.id, at(seconds))));
    expect(marks.filter(Boolean)).toHaveLength(1);
  });

  it('deletes the events dispatched before the cutoff, never a pending one', async () => {
    const [a, b] = await twoWorkspaces(store());
    const old = await emit(a.id, 1);
    const oldOfB = await emit(b.id, 1);
    const atCutoff = await emit(a.id, 2);
    const pending = await emit(a.id, 0);
    await store().outbox.markDispatched(old.id, at(100));
    await store().outbox.markDispatched(oldOfB.id, at(150));
    await store().outbox.markDispatched(atCutoff.id, at(200));
    expect(await store().outbox.deleteDispatchedBefore(at(200))).toBe(2);
    expect(ids(await store().outbox.list({ workspaceId: a.id }))).toEqual([pending.id, atCutoff.id]);
    expect(await store().outbox.list({ workspaceId: b.id })).toEqual([]);
    expect(await store().outbox.deleteDispatchedBefore(at(200))).toBe(0);
  });
});
