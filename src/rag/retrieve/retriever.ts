import { LRUCache } from 'lru-cache';
import type { Embedder } from '../../llm/embeddings/embedder.js';
import type { ChunkDetails, ChunkHit, ChunkSearch, SearchScope } from '../../store/store.js';
import { fuseScores, scaledToBest, scaledToRange } from './fuse-scores.js';
import { lexicalProximity, passageProfile, sentenceMatch, termProfile, termWeights, type PassageProfile } from './lexical-proximity.js';
import { queryVectorCache } from '../../observability/instruments.js';

/** `hybrid` fuses both engines; the others use one. */
export type RetrievalMode = 'hybrid' | 'vector' | 'keyword';

export interface FusionWeights {
  vector: number;
  keyword: number;
}

/**
 * Weights of the two lexical signals computed over the candidates, beside the engines' own: the best
 * sentence's match counts more than keyword search, the whole passage's word pairs less.
 */
const SENTENCE_WEIGHT = 1.5;
const PROXIMITY_WEIGHT = 0.5;

/**
 * A datastore's weights until it is given its own. The built-in embedding model is weaker than BM25 on
 * technical text (see eval/): it refines, keywords lead.
 */
export const DEFAULT_FUSION_WEIGHTS: FusionWeights = { vector: 0.5, keyword: 1 };

export interface RetrievalRequest {
  scope: SearchScope;
  query: string;
  topK: number;
  mode: RetrievalMode;
  /** Of the datastores searched; hybrid mode only. */
  weights: FusionWeights;
}

export interface RetrievedChunk extends ChunkDetails {
  /**
   * Higher is better. hybrid: weighted mean of the candidates' normalised scores, in [0, 1], 1 when the
   * chunk is best on every signal; vector: cosine similarity; keyword: the engine's relevance scaled so
   * the best hit is 1.
   */
  score: number;
}

/**
 * Passages whose term profiles stay cached (~6 KB each for 400-token chunks, so ~120 MB when full);
 * chunk ids change with every re-index, so entries never go stale.
 */
const PROFILE_CACHE_SIZE = 20_000;

/** How deep each engine looks before fusion: fusion needs more candidates than it returns. */
const candidateDepth = (topK: number) => Math.max(50, topK * 2);

/** The retrieval engine behind datastore queries and agent answers. */
export class Retriever {
  readonly #profiles = new LRUCache<string, PassageProfile>({ max: PROFILE_CACHE_SIZE });

  /**
   * Vectors of recent queries by model and text: a widget's visitors ask the same questions, and a
   * repeated one then costs no model run (no paid API call with a remote embedder). ~2 KB each at 512-d.
   */
  readonly #queryVectors: LRUCache<string, Float32Array> | undefined;

  constructor(
    private readonly search: ChunkSearch,
    private readonly embedder: () => Promise<Embedder>,
    queryCacheSize = 0,
  ) {
    this.#queryVectors = queryCacheSize > 0 ? new LRUCache({ max: queryCacheSize }) : undefined;
  }

  async retrieve(request: RetrievalRequest): Promise<RetrievedChunk[]> {
    const { scope, query, topK, mode } = request;
    if (mode === 'vector') return this.withDetails(scope.workspaceId, await this.vectorHits(scope, query, topK));
    if (mode === 'keyword') {
      const keyword = await this.search.keywordSearch(scope, query, topK);
      const top = keyword[0]?.score ?? 1;
      return this.withDetails(
        scope.workspaceId,
        keyword.map((hit) => ({ ...hit, score: top > 0 ? hit.score / top : 0 })),
      );
    }
    return this.hybrid(request);
  }

  /**
   * Both engines propose candidates; each candidate is scored by both engines and by how closely its
   * wording, and that of its best sentence, echoes the query. The returned score is the fused one.
   */
  private async hybrid({ scope, query, topK, weights }: RetrievalRequest): Promise<RetrievedChunk[]> {
    const depth = candidateDepth(topK);
    // The query goes to the embedder first; keyword search, its hits' texts and their term profiles
    // (the costly part of lexical scoring) are done on this thread meanwhile, off the critical path.
    const vectorSide = weights.vector > 0 ? this.vectorHits(scope, query, depth) : Promise.resolve([]);
    const keywordSide = (async () => {
      const hits = weights.keyword > 0 ? await this.search.keywordSearch(scope, query, depth) : [];
      const details = await this.search.details(
        scope.workspaceId,
        hits.map((hit) => hit.chunkId),
      );
      return { hits, candidates: details.map((chunk) => this.profiled(chunk)) };
    })();
    const [vector, { hits: keyword, candidates: keywordCandidates }] = await Promise.all([vectorSide, keywordSide]);
    const known = new Set(keyword.map((hit) => hit.chunkId));
    const vectorOnly = await this.search.details(
      scope.workspaceId,
      vector.filter((hit) => !known.has(hit.chunkId)).map((hit) => hit.chunkId),
    );
    const candidates = [...keywordCandidates, ...vectorOnly.map((chunk) => this.profiled(chunk))];
    const queryProfile = termProfile(query);
    const termWeight = termWeights(
      queryProfile,
      candidates.map(({ profile }) => profile),
    );
    const lexical = (score: (profile: PassageProfile) => number) => new Map(candidates.map(({ chunk, profile }) => [chunk.chunkId, score(profile)]));
    const fused = fuseScores(
      candidates.map(({ chunk }) => chunk.chunkId),
      [
        { scores: scaledToRange(vector), weight: weights.vector },
        { scores: scaledToBest(keyword), weight: weights.keyword },
        { scores: lexical((profile) => sentenceMatch(queryProfile, profile, termWeight)), weight: SENTENCE_WEIGHT },
        // In [0, 2]: halved to the [0, 1] of the other signals.
        { scores: lexical((profile) => lexicalProximity(queryProfile, profile) / 2), weight: PROXIMITY_WEIGHT },
      ],
    ).slice(0, topK);
    const byId = new Map(candidates.map(({ chunk }) => [chunk.chunkId, chunk]));
    return fused.flatMap((hit) => {
      const chunk = byId.get(hit.chunkId);
      return chunk === undefined ? [] : [{ ...chunk, score: hit.score }];
    });
  }

  /** Tokenising ~100 passages per query is most of hybrid search's own cost: do it once per chunk. */
  private profiled(chunk: ChunkDetails): { chunk: ChunkDetails; profile: PassageProfile } {
    let profile = this.#profiles.get(chunk.chunkId);
    if (profile === undefined) {
      profile = passageProfile(chunk.text);
      this.#profiles.set(chunk.chunkId, profile);
    }
    return { chunk, profile };
  }

  private async withDetails(workspaceId: string, hits: readonly ChunkHit[]): Promise<RetrievedChunk[]> {
    const details = await this.search.details(
      workspaceId,
      hits.map((hit) => hit.chunkId),
    );
    const scoreOf = new Map(hits.map((hit) => [hit.chunkId, hit.score]));
    return details.map((chunk) => ({ ...chunk, score: scoreOf.get(chunk.chunkId) ?? 0 }));
  }

  /** The store looks up the scope while the query is being embedded. */
  private vectorHits(scope: SearchScope, query: string, limit: number): Promise<ChunkHit[]> {
    return this.search.vectorSearch(scope, this.queryVector(query), limit);
  }

  private async queryVector(query: string): Promise<Float32Array> {
    const embedder = await this.embedder();
    const key = `${embedder.modelId}\n${query}`;
    const cached = this.#queryVectors?.get(key);
    if (this.#queryVectors !== undefined) queryVectorCache.inc({ result: cached === undefined ? 'miss' : 'hit' });
    if (cached !== undefined) return cached;
    const vector = await embedder.embedQuery(query);
    this.#queryVectors?.set(key, vector);
    return vector;
  }
}
