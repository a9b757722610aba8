import type { RetrievalMode, RetrievedChunk, Retriever } from '../rag/retrieve/retriever.js';
import type { Store } from '../store/store.js';
import { fusionWeightsOf } from './fusion-weights.js';
import { callingModel } from './model-errors.js';
import { findUsable } from './scoped.js';
import { documentUrl } from './document-urls.js';

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
    /** The address people reach Parley at, for the URL of a document that has none of its own. */
    private readonly publicUrl: () => string,
  ) {}

  /**
   * `workspaceId` is the caller's, or null for a caller without a key, who may search public
   * datastores only. Each hit's `source` is the stable URL of its document (document-urls.ts).
   */
  async query(workspaceId: string | null, datastoreId: string, input: DatastoreQuery): Promise<RetrievedChunk[]> {
    const datastore = await findUsable(this.store.datastores, 'Datastore', workspaceId, datastoreId);
    const chunks = await callingModel(() =>
      this.retriever.retrieve({
        scope: {
          workspaceId: datastore.workspaceId,
          datastoreIds: [datastore.id],
          datasourceIds: input.datasourceIds,
          customIds: input.customIds,
        },
        query: input.query,
        topK: input.topK,
        mode: input.mode,
        weights: fusionWeightsOf([datastore]),
      }),
    );
    return chunks.map((chunk) => ({ ...chunk, source: documentUrl(this.publicUrl(), chunk) }));
  }
}
