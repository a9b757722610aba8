import type { Embedder } from '../../llm/embeddings/embedder.js';
import type { ChunkDetails, ChunkHit, ChunkSearch, SearchScope } from '../../store/store.js';
import { fuseRanks } from './fuse-ranks.js';

/** `hybrid` fuses both engines; the others use one. */
export type RetrievalMode = 'hybrid' | 'vector' | 'keyword';

export interface FusionWeights {
  vector: number;
  keyword: number;
}

export const DEFAULT_WEIGHTS: FusionWeights = { vector: 1, keyword: 1 };

export interface RetrievalRequest {
  scope: SearchScope;
  query: string;
  topK: number;
  mode: RetrievalMode;
  weights?: FusionWeights;
}

export interface RetrievedChunk extends ChunkDetails {
  /**
   * Higher is better. hybrid: fused reciprocal rank scaled to (0, 1], 1 when both engines rank the chunk
   * first; vector: cosine similarity; keyword: the engine's relevance scaled so the best hit is 1.
   */
  score: number;
}

/** How deep each engine looks before fusion: fusion needs more candidates than it returns. */
const candidateDepth = (topK: number) => Math.max(50, topK * 4);

/** The retrieval engine behind datastore queries and agent answers. */
export class Retriever {
  constructor(
    private readonly search: ChunkSearch,
    private readonly embedder: () => Promise<Embedder>,
  ) {}

  async retrieve(request: RetrievalRequest): Promise<RetrievedChunk[]> {
    const ranked = await this.rank(request);
    const top = ranked.slice(0, request.topK);
    const details = await this.search.details(request.scope.workspaceId, top.map((hit) => hit.chunkId));
    const scoreOf = new Map(top.map((hit) => [hit.chunkId, hit.score]));
    return details.map((chunk) => ({ ...chunk, score: scoreOf.get(chunk.chunkId) ?? 0 }));
  }

  private async rank({ scope, query, topK, mode, weights = DEFAULT_WEIGHTS }: RetrievalRequest): Promise<ChunkHit[]> {
    const depth = mode === 'hybrid' ? candidateDepth(topK) : topK;
    const [vector, keyword] = await Promise.all([
      mode === 'keyword' ? [] : this.vectorHits(scope, query, depth),
      mode === 'vector' ? [] : this.search.keywordSearch(scope, query, depth),
    ]);
    if (mode === 'vector') return vector;
    if (mode === 'keyword') {
      const top = keyword[0]?.score ?? 1;
      return keyword.map((hit) => ({ ...hit, score: top > 0 ? hit.score / top : 0 }));
    }
    return fuseRanks([
      { hits: vector, weight: weights.vector },
      { hits: keyword, weight: weights.keyword },
    ]);
  }

  private async vectorHits(scope: SearchScope, query: string, limit: number): Promise<ChunkHit[]> {
    const embedder = await this.embedder();
    return this.search.vectorSearch(scope, await embedder.embedQuery(query), limit);
  }
}
