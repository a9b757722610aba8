import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Database, DatastoreTable } from '../schema.js';
import type { DatastoreRecord, DatastoreType, DatastoreStore } from '../ports/datastore-store.js';
import type { Changes, Visibility } from '../ports/owned-records.js';
import { OwnedRecords } from './owned-rows.js';

const toRecord = (row: Selectable<DatastoreTable>): DatastoreRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  name: row.name,
  description: row.description,
  type: row.type as DatastoreType,
  visibility: row.visibility as Visibility,
  embeddingModel: row.embedding_model,
  embeddingDimensions: row.embedding_dimensions,
  vectorWeight: row.vector_weight,
  keywordWeight: row.keyword_weight,
  vectorWindows: row.vector_windows !== 0,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const toColumns = (changes: Changes<DatastoreRecord>): Updateable<DatastoreTable> => ({
  name: changes.name,
  description: changes.description,
  type: changes.type,
  visibility: changes.visibility,
  vector_weight: changes.vectorWeight,
  keyword_weight: changes.keywordWeight,
  vector_windows: changes.vectorWindows === undefined ? undefined : Number(changes.vectorWindows),
});

export class SqlDatastoreStore extends OwnedRecords<'datastore', DatastoreRecord> implements DatastoreStore {
  constructor(db: Kysely<Database>) {
    super(db, 'datastore', toRecord);
  }

  async create(datastore: DatastoreRecord): Promise<void> {
    await this.db
      .insertInto('datastore')
      .values({
        id: datastore.id,
        workspace_id: datastore.workspaceId,
        name: datastore.name,
        description: datastore.description,
        type: datastore.type,
        visibility: datastore.visibility,
        embedding_model: datastore.embeddingModel,
        embedding_dimensions: datastore.embeddingDimensions,
        vector_weight: datastore.vectorWeight,
        keyword_weight: datastore.keywordWeight,
        vector_windows: Number(datastore.vectorWindows),
        created_at: datastore.createdAt,
        updated_at: datastore.updatedAt,
      })
      .execute();
  }

  update(workspaceId: string, id: string, changes: Changes<DatastoreRecord>, at: string): Promise<DatastoreRecord | undefined> {
    return this.updateColumns(workspaceId, id, { ...toColumns(changes), updated_at: at });
  }

  async resetEmbeddingModel(workspaceId: string, id: string): Promise<void> {
    await this.db
      .updateTable('datastore')
      .set({ embedding_model: null, embedding_dimensions: null })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  }

  delete(workspaceId: string, id: string): Promise<DatastoreRecord | undefined> {
    // Links from agents go with it (ON DELETE CASCADE), so agents simply lose this datastore.
    return this.deleteRecord(workspaceId, id);
  }
}
