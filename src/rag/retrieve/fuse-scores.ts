import type { ChunkHit } from '../../store/store.js';

/** One signal about the candidates: a score in [0, 1] per chunk (missing means 0), and its weight. */
export interface Signal {
  scores: ReadonlyMap<string, number>;
  weight: number;
}

/**
 * Weighted mean of normalised scores over `chunkIds`, best first; 1 when a chunk scores 1 on every
 * signal. Scores rather than ranks: a keyword hit far ahead of the next one, or a passage that holds
 * every query word in one sentence, keeps its lead instead of counting like any other first place.
 */
export function fuseScores(chunkIds: readonly string[], signals: readonly Signal[]): ChunkHit[] {
  const total = signals.reduce((sum, signal) => sum + signal.weight, 0);
  if (total === 0) return [];
  const fused = chunkIds.map((chunkId) => {
    let score = 0;
    for (const { scores, weight } of signals) score += weight * (scores.get(chunkId) ?? 0);
    return { chunkId, score: score / total };
  });
  // Ties in id order, compared by code unit: stable across runs and locales, and far cheaper than collation.
  return fused.sort((a, b) => b.score - a.score || (a.chunkId < b.chunkId ? -1 : a.chunkId > b.chunkId ? 1 : 0));
}

/** Scores scaled so the best is 1: relative strength within one engine's list. */
export function scaledToBest(hits: readonly ChunkHit[]): Map<string, number> {
  const best = Math.max(0, ...hits.map((hit) => hit.score));
  return new Map(hits.map((hit) => [hit.chunkId, best > 0 ? Math.max(0, hit.score) / best : 0]));
}

/**
 * Scores scaled to [0, 1] between the list's worst and best: cosine similarities of unrelated texts are
 * far from 0, so only their spread within the list says anything.
 */
export function scaledToRange(hits: readonly ChunkHit[]): Map<string, number> {
  const scores = hits.map((hit) => hit.score);
  const low = Math.min(...scores);
  const spread = Math.max(...scores) - low;
  return new Map(hits.map((hit) => [hit.chunkId, spread > 0 ? (hit.score - low) / spread : 1]));
}
