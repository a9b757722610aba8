import { describe, expect, it } from 'vitest';
import { fuseScores, scaledToBest, scaledToRange } from '../../src/rag/retrieve/fuse-scores.js';
import {
  lexicalProximity as proximityOf,
  passageProfile,
  sentenceMatch as sentenceMatchOf,
  termProfile,
  termWeights,
} from '../../src/rag/retrieve/lexical-proximity.js';

const lexicalProximity = (query: string, passage: string) => proximityOf(termProfile(query), termProfile(passage));

const hit = (chunkId: string, score: number) => ({ chunkId, score });

describe('score fusion', () => {
  const scores = (entries: Record<string, number>) => new Map(Object.entries(entries));

  it('is the weighted mean of the signals, 1 for a chunk best on all of them, 0 where a signal is missing', () => {
    const fused = fuseScores(
      ['a', 'b', 'c'],
      [
        { scores: scores({ a: 1, b: 0.5 }), weight: 1 },
        { scores: scores({ a: 1, c: 1 }), weight: 3 },
      ],
    );
    expect(fused).toEqual([
      { chunkId: 'a', score: 1 },
      { chunkId: 'c', score: 0.75 },
      { chunkId: 'b', score: 0.125 },
    ]);
  });

  it('lets the heavier signal decide, ignores weight 0 and returns nothing when every weight is 0', () => {
    const top = (vector: number, keyword: number) =>
      fuseScores(
        ['v', 'k'],
        [
          { scores: scores({ v: 1, k: 0.2 }), weight: vector },
          { scores: scores({ k: 1, v: 0.2 }), weight: keyword },
        ],
      )[0]!.chunkId;
    expect(top(0.5, 1)).toBe('k');
    expect(top(1, 0.5)).toBe('v');
    expect(top(0, 1)).toBe('k');
    expect(fuseScores(['a'], [{ scores: scores({ a: 1 }), weight: 0 }])).toEqual([]);
  });

  it('keeps a clear lead where ranks alone would tie', () => {
    // Keyword search finds "a" far ahead; the vector list barely prefers "b": each is first once.
    const keyword = scaledToBest([hit('a', 12), hit('b', 2), hit('c', 1.9)]);
    const vector = scaledToRange([hit('b', 0.52), hit('a', 0.5), hit('c', 0.1)]);
    const fused = fuseScores(
      ['a', 'b', 'c'],
      [
        { scores: keyword, weight: 1 },
        { scores: vector, weight: 1 },
      ],
    );
    expect(fused.map((h) => h.chunkId)).toEqual(['a', 'b', 'c']);
  });

  it('scales engine scores: to the best one, or to the spread between worst and best', () => {
    expect(scaledToBest([hit('a', 4), hit('b', 1)])).toEqual(
      new Map([
        ['a', 1],
        ['b', 0.25],
      ]),
    );
    expect(scaledToRange([hit('a', 0.9), hit('b', 0.7), hit('c', 0.5)])).toEqual(
      new Map([
        ['a', 1],
        ['b', expect.closeTo(0.5)],
        ['c', 0],
      ]),
    );
    expect(scaledToRange([hit('a', 0.3)])).toEqual(new Map([['a', 1]]));
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

describe('sentence match', () => {
  const match = (query: string, passage: string, others: string[] = []) => {
    const queryProfile = termProfile(query);
    const profile = passageProfile(passage);
    return sentenceMatchOf(queryProfile, profile, termWeights(queryProfile, [profile, ...others.map(passageProfile)]));
  };

  it('prefers the query’s words gathered in one sentence over the same words spread over the passage', () => {
    const query = 'Which protein does the virus use to enter cells?';
    const gathered = 'The weather was mild. The virus uses the spike protein to enter cells. Samples were frozen.';
    const spread = 'The virus was isolated. A protein was measured. Cells were counted. Some enter the trial.';
    expect(match(query, gathered)).toBeGreaterThan(match(query, spread));
    expect(match(query, gathered)).toBeLessThanOrEqual(1);
  });

  it('weighs a word by how rare it is among the candidates', () => {
    const query = 'What is the incubation period of the virus?';
    const others = ['The virus spreads fast.', 'The virus was sequenced.', 'The virus infects bats.'];
    const rare = 'Its incubation period is five days.';
    const common = 'The virus is dangerous.';
    expect(match(query, rare, others)).toBeGreaterThan(match(query, common, others));
  });

  it('is 0 without any query word', () => {
    expect(match('what is the', 'what is the answer')).toBe(0);
    expect(match('incubation period', 'Ducks swim in ponds.')).toBe(0);
  });
});
