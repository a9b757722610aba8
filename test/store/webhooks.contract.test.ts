import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { at, twoWorkspaces, useScratchStore, webhookRecord } from '../support/store-contract.js';
import { STORE_KINDS } from '../support/stores.js';

describe.each(STORE_KINDS)('the webhooks port of the %s store', (kind) => {
  const store = useScratchStore(kind);

  it('reads back an endpoint as created', async () => {
    const [a] = await twoWorkspaces(store());
    const endpoint = webhookRecord(a.id, { events: ['conversation.resolved', 'message.created'], description: 'CRM', enabled: false });
    await store().webhooks.create(endpoint);
    expect(await store().webhooks.find(a.id, endpoint.id)).toEqual(endpoint);
    const subscription = webhookRecord(a.id, { source: 'automation' });
    await store().webhooks.create(subscription);
    expect(await store().webhooks.find(a.id, subscription.id)).toEqual(subscription);
  });

  it('reads an endpoint only in its own workspace, and tells another workspace’s endpoint from none', async () => {
    const [a, b] = await twoWorkspaces(store());
    const endpoint = webhookRecord(a.id);
    await store().webhooks.create(endpoint);
    expect(await store().webhooks.find(b.id, endpoint.id)).toBeUndefined();
    expect(await store().webhooks.list(b.id)).toEqual([]);
    expect(await store().webhooks.ownerOf(endpoint.id)).toBe(a.id);
    expect(await store().webhooks.ownerOf(newId())).toBeUndefined();
  });

  it('lists a workspace’s endpoints newest first', async () => {
    const [a] = await twoWorkspaces(store());
    const middle = webhookRecord(a.id, { createdAt: at(10) });
    const newest = webhookRecord(a.id, { createdAt: at(20) });
    const oldest = webhookRecord(a.id, { createdAt: at(1) });
    for (const endpoint of [middle, newest, oldest]) await store().webhooks.create(endpoint);
    expect(await store().webhooks.list(a.id)).toEqual([newest, middle, oldest]);
  });

  it('updates the fields given, keeps the others and the secret, and stamps the change', async () => {
    const [a] = await twoWorkspaces(store());
    const endpoint = webhookRecord(a.id, { description: 'kept' });
    await store().webhooks.create(endpoint);
    const expected = { ...endpoint, url: 'https://new.example.com/hook', events: ['message.created'], enabled: false, updatedAt: at(30) };
    expect(await store().webhooks.update(a.id, endpoint.id, { url: expected.url, events: expected.events, enabled: false }, at(30))).toEqual(
      expected,
    );
    expect(await store().webhooks.find(a.id, endpoint.id)).toEqual(expected);
  });

  it('neither updates nor deletes another workspace’s endpoint', async () => {
    const [a, b] = await twoWorkspaces(store());
    const endpoint = webhookRecord(a.id);
    await store().webhooks.create(endpoint);
    expect(await store().webhooks.update(b.id, endpoint.id, { url: 'https://attacker.example', enabled: false }, at(5))).toBeUndefined();
    expect(await store().webhooks.delete(b.id, endpoint.id)).toBeUndefined();
    expect(await store().webhooks.find(a.id, endpoint.id)).toEqual(endpoint);
  });

  it('deletes an endpoint and answers with what it deleted', async () => {
    const [a] = await twoWorkspaces(store());
    const endpoint = webhookRecord(a.id);
    await store().webhooks.create(endpoint);
    expect(await store().webhooks.delete(a.id, endpoint.id)).toEqual(endpoint);
    expect(await store().webhooks.find(a.id, endpoint.id)).toBeUndefined();
    expect(await store().webhooks.delete(a.id, endpoint.id)).toBeUndefined();
  });

  it('finds the workspace’s enabled endpoints that receive an event type, and only those', async () => {
    const [a, b] = await twoWorkspaces(store());
    const both = webhookRecord(a.id, { events: ['conversation.resolved', 'message.created'] });
    const resolvedOnly = webhookRecord(a.id, { events: ['conversation.resolved'] });
    const messagesOnly = webhookRecord(a.id, { events: ['message.created'] });
    const disabled = webhookRecord(a.id, { events: ['conversation.resolved'], enabled: false });
    const elsewhere = webhookRecord(b.id, { events: ['conversation.resolved'] });
    for (const endpoint of [both, resolvedOnly, messagesOnly, disabled, elsewhere]) await store().webhooks.create(endpoint);
    const subscribed = await store().webhooks.subscribedTo(a.id, 'conversation.resolved');
    expect(subscribed.map((endpoint) => endpoint.id).sort()).toEqual([both.id, resolvedOnly.id].sort());
    expect(await store().webhooks.subscribedTo(a.id, 'conversation')).toEqual([]);
    await store().webhooks.update(a.id, disabled.id, { enabled: true }, at(1));
    await store().webhooks.update(a.id, both.id, { events: ['message.created'] }, at(1));
    const afterChanges = await store().webhooks.subscribedTo(a.id, 'conversation.resolved');
    expect(afterChanges.map((endpoint) => endpoint.id).sort()).toEqual([resolvedOnly.id, disabled.id].sort());
  });
});
