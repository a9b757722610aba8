import { describe, expect, it } from 'vitest';
import { firstModelWins } from '../../src/domain/ingestion/embedding-model-rule.js';
import { chunk, createDatastore, createWorkspace, datasourceRecord, indexed, jobRecord, useScratchStore } from '../support/store-contract.js';

describe('first model wins', () => {
  it('adopts the first model, keeps it, and refuses another', () => {
    expect(firstModelWins(null, 'model-a')).toBe('adopt');
    expect(firstModelWins('model-a', 'model-a')).toBe('keep');
    expect(firstModelWins('model-a', 'model-b')).toBe('refuse');
  });

  const store = useScratchStore('sqlite');

  it('is the rule the store applies when an index is written (SQLite, no server)', async () => {
    const workspace = await createWorkspace(store());
    const datastore = await createDatastore(store(), workspace.id);
    const write = async (model: string) => {
      const datasource = datasourceRecord(workspace.id, datastore.id);
      await store().datasources.create(datasource, jobRecord({ workspaceId: workspace.id }));
      return store().datasources.writeIndex(
        workspace.id,
        datasource.id,
        1,
        indexed([chunk(0, 'text')], { embeddingModel: model, modelRule: firstModelWins }),
      );
    };
    expect(await write('model-a')).toBe('written');
    expect(await store().datastores.find(workspace.id, datastore.id)).toMatchObject({ embeddingModel: 'model-a' });
    expect(await write('model-a')).toBe('written');
    expect(await write('model-b')).toBe('model-mismatch');
    expect(await store().datastores.find(workspace.id, datastore.id)).toMatchObject({ embeddingModel: 'model-a' });
  });
});
