import type { ChunkHit } from '../ports/chunk-search.js';

/**
 * Windows a vector search asks for per chunk it returns: a chunk has ~3.6 windows of 90 words when its
 * 400 tokens are cut for the built-in model, and its best ones are neighbours, so the nearest windows
 * hold several of the same chunk.
 */
export const WINDOWS_PER_CHUNK = 4;

/** Max-sim: each chunk scored by its best window, best first, at most `limit`. */
export function bestWindowPerChunk(windows: readonly ChunkHit[], limit: number): ChunkHit[] {
  const best = new Map<string, number>();
  for (const { chunkId, score } of windows) {
    const known = best.get(chunkId);
    if (known === undefined || score > known) best.set(chunkId, score);
  }
  return [...best]
    .map(([chunkId, score]) => ({ chunkId, score }))
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}
