import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import {
  agentRecord,
  at,
  chunk,
  createDatastore,
  datastoreRecord,
  indexedDatasource,
  twoWorkspaces,
  useScratchStore,
} from '../support/store-contract.js';
import { STORE_KINDS } from '../support/stores.js';

describe.each(STORE_KINDS)('the datastores port of the %s store', (kind) => {
  const store = useScratchStore(kind);

  it('reads back a datastore as created', async () => {
    const [a] = await twoWorkspaces(store());
    const datastore = datastoreRecord(a.id, { name: 'Manuals', description: 'PDFs', visibility: 'public', vectorWeight: 0.3, keywordWeight: 0.7 });
    await store().datastores.create(datastore);
    expect(await store().datastores.find(a.id, datastore.id)).toEqual(datastore);
  });

  it('reads a datastore only in its own workspace, and tells another workspace’s datastore from none', async () => {
    const [a, b] = await twoWorkspaces(store());
    const datastore = await createDatastore(store(), a.id);
    expect(await store().datastores.find(b.id, datastore.id)).toBeUndefined();
    expect(await store().datastores.list(b.id)).toEqual([]);
    expect(await store().datastores.ownerOf(datastore.id)).toBe(a.id);
    expect(await store().datastores.ownerOf(newId())).toBeUndefined();
  });

  it('lists a workspace’s datastores newest first', async () => {
    const [a] = await twoWorkspaces(store());
    const middle = await createDatastore(store(), a.id, { createdAt: at(10) });
    const newest = await createDatastore(store(), a.id, { createdAt: at(20) });
    const oldest = await createDatastore(store(), a.id, { createdAt: at(1) });
    expect(await store().datastores.list(a.id)).toEqual([newest, middle, oldest]);
  });

  it('updates the fields given, keeps the others, and stamps the change', async () => {
    const [a] = await twoWorkspaces(store());
    const datastore = await createDatastore(store(), a.id, { name: 'Before', description: 'kept' });
    const expected = { ...datastore, name: 'After', keywordWeight: 0.25, updatedAt: at(9) };
    expect(await store().datastores.update(a.id, datastore.id, { name: 'After', keywordWeight: 0.25 }, at(9))).toEqual(expected);
    expect(await store().datastores.find(a.id, datastore.id)).toEqual(expected);
  });

  it('neither updates nor deletes another workspace’s datastore, nor anything in it', async () => {
    const [a, b] = await twoWorkspaces(store());
    const datasource = await indexedDatasource(store(), a.id, [chunk(0, 'kept text')]);
    const datastore = (await store().datastores.find(a.id, datasource.datastoreId))!;
    expect(await store().datastores.update(b.id, datastore.id, { name: 'Hijacked' }, at(5))).toBeUndefined();
    expect(await store().datastores.delete(b.id, datastore.id)).toBeUndefined();
    expect(await store().datastores.find(a.id, datastore.id)).toEqual(datastore);
    expect(await store().datasources.find(a.id, datasource.id)).toEqual(datasource);
    expect(await store().datasources.listChunks(a.id, datasource.id, { offset: 0, limit: 10 })).toHaveLength(1);
  });

  it('takes the embedding model of the first content indexed, and forgets it when reset', async () => {
    const [a] = await twoWorkspaces(store());
    const datasource = await indexedDatasource(store(), a.id, [chunk(0, 'some text')]);
    expect(await store().datastores.find(a.id, datasource.datastoreId)).toMatchObject({ embeddingModel: 'contract-embed', embeddingDimensions: 4 });
    await store().datastores.resetEmbeddingModel(datasource.datastoreId);
    expect(await store().datastores.find(a.id, datasource.datastoreId)).toMatchObject({ embeddingModel: null, embeddingDimensions: null });
  });

  it('deletes a datastore with its datasources and chunks; agents linked to it lose the link and keep the others', async () => {
    const [a] = await twoWorkspaces(store());
    const datasource = await indexedDatasource(store(), a.id, [chunk(0, 'gone with it')]);
    const doomed = (await store().datastores.find(a.id, datasource.datastoreId))!;
    const kept = await createDatastore(store(), a.id);
    const agent = agentRecord(a.id, { datastoreIds: [doomed.id, kept.id] });
    await store().agents.create(agent);

    expect(await store().datastores.delete(a.id, doomed.id)).toEqual(doomed);
    expect(await store().datastores.find(a.id, doomed.id)).toBeUndefined();
    expect(await store().datasources.ownerOf(datasource.id)).toBeUndefined();
    expect(await store().datasources.listChunks(a.id, datasource.id, { offset: 0, limit: 10 })).toEqual([]);
    expect(await store().datasources.storedTextSize(a.id)).toBe(0);
    expect((await store().agents.find(a.id, agent.id))?.datastoreIds).toEqual([kept.id]);
    expect(await store().datastores.delete(a.id, doomed.id)).toBeUndefined();
  });
});
