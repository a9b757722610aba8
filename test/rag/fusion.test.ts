import { describe, expect, it } from 'vitest';
import { RRF_K, fuseRanks } from '../../src/rag/retrieve/fuse-ranks.js';
import { lexicalProximity as proximityOf, termProfile } from '../../src/rag/retrieve/lexical-proximity.js';

const lexicalProximity = (query: string, passage: string) => proximityOf(termProfile(query), termProfile(passage));

const hits = (...ids: string[]) => ids.map((chunkId, i) => ({ chunkId, score: 10 - i }));

describe('reciprocal-rank fusion', () => {
  it('scores 1 for a chunk every list ranks first, and sums weight / (k + rank) otherwise', () => {
    const fused = fuseRanks([
      { hits: hits('a', 'b'), weight: 1 },
      { hits: hits('a', 'c'), weight: 1 },
    ]);
    expect(fused[0]).toEqual({ chunkId: 'a', score: 1 });
    const best = 2 / (RRF_K + 1);
    expect(fused.find((hit) => hit.chunkId === 'b')!.score).toBeCloseTo(1 / (RRF_K + 2) / best);
  });

  it('lets the heavier list decide between its own top hit and the other’s', () => {
    const lists = (vector: number, keyword: number) =>
      fuseRanks([
        { hits: hits('v', 'k'), weight: vector },
        { hits: hits('k', 'v'), weight: keyword },
      ])[0]!.chunkId;
    expect(lists(0.5, 1)).toBe('k');
    expect(lists(1, 0.5)).toBe('v');
  });

  it('ignores lists of weight 0 and returns nothing when every weight is 0', () => {
    expect(fuseRanks([{ hits: hits('a'), weight: 0 }])).toEqual([]);
    expect(fuseRanks([{ hits: hits('a'), weight: 0 }, { hits: hits('b'), weight: 1 }])[0]!.chunkId).toBe('b');
  });
});

describe('lexical proximity', () => {
  it('rewards passages with the query’s words, more so in the query’s order', () => {
    const query = 'What is the main cause of HIV-1 infection in children?';
    const echo = 'Mother-to-child transmission is the main cause of HIV-1 infection in children worldwide.';
    const scattered = 'Children with an infection: the cause is often HIV-1, which is the main problem.';
    const unrelated = 'Ducks are birds that swim in ponds and lakes.';
    expect(lexicalProximity(query, echo)).toBeGreaterThan(lexicalProximity(query, scattered));
    expect(lexicalProximity(query, scattered)).toBeGreaterThan(lexicalProximity(query, unrelated));
    expect(lexicalProximity(query, unrelated)).toBe(0);
  });

  it('is 0 for a query of stop words only', () => {
    expect(lexicalProximity('what is the', 'what is the answer')).toBe(0);
  });
});
