import type { ChunkHit } from '../../store/store.js';

/**
 * The RRF constant. The classic 60 flattens ranks so much that a weak list pulls as hard as a strong
 * one; 10 keeps the top of each list decisive (measured on the bundled evaluation, see eval/).
 */
export const RRF_K = 10;

export interface RankedList {
  hits: readonly ChunkHit[];
  weight: number;
}

/**
 * Reciprocal-rank fusion: each list contributes weight / (k + rank) for every chunk it holds. The result
 * is scaled so that a chunk ranked first by every list scores 1; scores stay in (0, 1].
 */
export function fuseRanks(lists: readonly RankedList[]): ChunkHit[] {
  const best = lists.reduce((total, list) => total + list.weight / (RRF_K + 1), 0);
  if (best === 0) return [];
  const fused = new Map<string, number>();
  for (const { hits, weight } of lists) {
    hits.forEach((hit, index) => fused.set(hit.chunkId, (fused.get(hit.chunkId) ?? 0) + weight / (RRF_K + index + 1)));
  }
  return [...fused]
    .map(([chunkId, score]) => ({ chunkId, score: score / best }))
    .sort((a, b) => b.score - a.score || a.chunkId.localeCompare(b.chunkId));
}
