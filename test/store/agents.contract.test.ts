import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { agentRecord, at, createConversation, createDatastore, twoWorkspaces, useScratchStore } from '../support/store-contract.js';
import { STORE_KINDS } from '../support/stores.js';

describe.each(STORE_KINDS)('the agents port of the %s store', (kind) => {
  const store = useScratchStore(kind);

  it('reads back an agent as created, its datastores in the order it lists them', async () => {
    const [a] = await twoWorkspaces(store());
    const [first, second, third] = [await createDatastore(store(), a.id), await createDatastore(store(), a.id), await createDatastore(store(), a.id)];
    const agent = agentRecord(a.id, {
      systemPrompt: 'Be brief.',
      iconUrl: 'https://example.com/icon.png',
      handle: 'helper',
      visibility: 'public',
      temperature: 0.7,
      allowedOrigins: ['https://example.com', 'https://shop.example.com'],
      datastoreIds: [third.id, first.id, second.id],
    });
    await store().agents.create(agent);
    expect(await store().agents.find(a.id, agent.id)).toEqual(agent);
  });

  it('reads an agent only in its own workspace, and tells another workspace’s agent from none', async () => {
    const [a, b] = await twoWorkspaces(store());
    const agent = agentRecord(a.id);
    await store().agents.create(agent);
    expect(await store().agents.find(b.id, agent.id)).toBeUndefined();
    expect(await store().agents.list(b.id)).toEqual([]);
    expect(await store().agents.ownerOf(agent.id)).toBe(a.id);
    expect(await store().agents.ownerOf(newId())).toBeUndefined();
  });

  it('lists a workspace’s agents newest first, each with its own datastores', async () => {
    const [a] = await twoWorkspaces(store());
    const datastore = await createDatastore(store(), a.id);
    const older = agentRecord(a.id, { createdAt: at(10), datastoreIds: [datastore.id] });
    const newer = agentRecord(a.id, { createdAt: at(20) });
    const oldest = agentRecord(a.id, { createdAt: at(1) });
    for (const agent of [older, newer, oldest]) await store().agents.create(agent);
    expect(await store().agents.list(a.id)).toEqual([newer, older, oldest]);
  });

  it('updates the fields given, keeps the others, and stamps the change', async () => {
    const [a] = await twoWorkspaces(store());
    const agent = agentRecord(a.id, { name: 'Before', description: 'kept', handle: 'h1' });
    await store().agents.create(agent);
    const updated = await store().agents.update(a.id, agent.id, { name: 'After', handle: null, allowedOrigins: ['https://a.example'] }, at(30));
    const expected = { ...agent, name: 'After', handle: null, allowedOrigins: ['https://a.example'], updatedAt: at(30) };
    expect(updated).toEqual(expected);
    expect(await store().agents.find(a.id, agent.id)).toEqual(expected);
  });

  it('replaces the linked datastores, in the new order, only when the change names them', async () => {
    const [a] = await twoWorkspaces(store());
    const [one, two, three] = [await createDatastore(store(), a.id), await createDatastore(store(), a.id), await createDatastore(store(), a.id)];
    const agent = agentRecord(a.id, { datastoreIds: [one.id, two.id] });
    await store().agents.create(agent);
    expect((await store().agents.update(a.id, agent.id, { datastoreIds: [three.id, one.id] }, at(1)))?.datastoreIds).toEqual([three.id, one.id]);
    expect((await store().agents.update(a.id, agent.id, { name: 'Renamed' }, at(2)))?.datastoreIds).toEqual([three.id, one.id]);
    expect((await store().agents.update(a.id, agent.id, { datastoreIds: [] }, at(3)))?.datastoreIds).toEqual([]);
  });

  it('neither updates nor deletes another workspace’s agent', async () => {
    const [a, b] = await twoWorkspaces(store());
    const datastore = await createDatastore(store(), a.id);
    const agent = agentRecord(a.id, { datastoreIds: [datastore.id] });
    await store().agents.create(agent);
    expect(await store().agents.update(b.id, agent.id, { name: 'Hijacked', datastoreIds: [] }, at(5))).toBeUndefined();
    expect(await store().agents.delete(b.id, agent.id)).toBeUndefined();
    expect(await store().agents.find(a.id, agent.id)).toEqual(agent);
  });

  it('deletes an agent and answers with what it deleted; a second delete finds nothing', async () => {
    const [a] = await twoWorkspaces(store());
    const agent = agentRecord(a.id);
    await store().agents.create(agent);
    expect(await store().agents.delete(a.id, agent.id)).toEqual(agent);
    expect(await store().agents.find(a.id, agent.id)).toBeUndefined();
    expect(await store().agents.ownerOf(agent.id)).toBeUndefined();
    expect(await store().agents.delete(a.id, agent.id)).toBeUndefined();
  });

  it('keeps a deleted agent’s conversations, without their agent', async () => {
    const [a] = await twoWorkspaces(store());
    const agent = agentRecord(a.id);
    await store().agents.create(agent);
    const conversation = await createConversation(store(), a.id, { agentId: agent.id });
    await store().agents.delete(a.id, agent.id);
    expect(await store().conversations.find(a.id, conversation.id)).toEqual({ ...conversation, agentId: null });
  });
});
