import type { RetrievalMode, RetrievedChunk, Retriever } from '../rag/retrieve/retriever.js';
import type { DatastoreRecord, Store } from '../store/store.js';
import { notFound, unauthorized } from './errors.js';
import { findInWorkspace } from './scoped.js';

export interface DatastoreQuery {
  query: string;
  topK: number;
  mode: RetrievalMode;
  datasourceIds?: string[];
  customIds?: string[];
}

/** Searches a datastore for the chunks that best answer a query. */
export class DatastoreSearchService {
  constructor(
    private readonly store: Store,
    private readonly retriever: Retriever,
  ) {}

  /**
   * `workspaceId` is the caller's, or null for a caller without a key, who may search public
   * datastores only.
   */
  async query(workspaceId: string | null, datastoreId: string, input: DatastoreQuery): Promise<RetrievedChunk[]> {
    const datastore = await this.accessible(workspaceId, datastoreId);
    return this.retriever.retrieve({
      scope: {
        workspaceId: datastore.workspaceId,
        datastoreIds: [datastore.id],
        datasourceIds: input.datasourceIds,
        customIds: input.customIds,
      },
      query: input.query,
      topK: input.topK,
      mode: input.mode,
      weights: { vector: datastore.vectorWeight, keyword: datastore.keywordWeight },
    });
  }

  private async accessible(workspaceId: string | null, datastoreId: string): Promise<DatastoreRecord> {
    if (workspaceId !== null) return findInWorkspace(this.store.datastores, 'Datastore', workspaceId, datastoreId);
    const owner = await this.store.datastores.ownerOf(datastoreId);
    const datastore = owner === undefined ? undefined : await this.store.datastores.find(owner, datastoreId);
    if (datastore === undefined) throw notFound('Datastore', datastoreId);
    if (datastore.visibility !== 'public') {
      throw unauthorized(`Datastore ${datastoreId} is private: send an API key of its workspace`);
    }
    return datastore;
  }
}
