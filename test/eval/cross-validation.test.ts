import { describe, expect, it } from 'vitest';
import { assignFolds, best, crossValidate, groupOf, scoreOf, type GridRun } from '../../eval/cross-validation.js';
import type { QueryOutcome } from '../../eval/evaluate-mode.js';

const cutoffs = { topK: 10, answerK: 5 };

/** An outcome with the judged document at `docRank` and an answer at `answerRank` (null: not found; undefined: not measured). */
function outcome(queryId: string, docRank: number | null | undefined, answerRank: number | null | undefined): QueryOutcome {
  return {
    queryId,
    latencyMs: 1,
    error: null,
    hitCustomIds: [],
    judged: docRank !== undefined,
    recall: docRank === null || docRank === undefined ? 0 : 1,
    docRank: docRank ?? null,
    hitRank: docRank ?? null,
    answered: answerRank !== undefined,
    answerRank: answerRank ?? null,
    answerRankCaseSensitive: answerRank ?? null,
  };
}

describe('groupOf', () => {
  it('groups by the first judged document, or by the query alone', () => {
    expect(groupOf({ id: 'q1', text: '', answers: [], relevant: new Set(['d2', 'd1']), unanswerable: false })).toBe('d2');
    expect(groupOf({ id: 'q1', text: '', answers: ['a'], relevant: new Set(), unanswerable: false })).toBe('query:q1');
  });
});

describe('assignFolds', () => {
  const keys = ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'c', 'c', 'd', 'd', 'e', 'f', 'g'];

  it('keeps each group in one fold and balances the folds by query count', () => {
    const { foldOf, groups } = assignFolds(keys, 3, 7);
    for (const key of new Set(keys)) expect(new Set(foldOf.filter((_, index) => keys[index] === key)).size).toBe(1);
    expect(groups.flat().sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    const counts = [0, 1, 2].map((fold) => foldOf.filter((value) => value === fold).length);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    expect(groups[0]![0]).toBe('a'); // largest first, into the first of the empty folds
  });

  it('is deterministic from the seed, whatever the query order', () => {
    const first = assignFolds(keys, 3, 7);
    expect(assignFolds(keys, 3, 7)).toEqual(first);
    const reversed = assignFolds([...keys].reverse(), 3, 7);
    expect(reversed.groups).toEqual(first.groups);
    const seeds = new Set([1, 2, 3, 4, 5, 6, 8, 9].map((seed) => JSON.stringify(assignFolds(keys, 3, seed).groups)));
    expect(seeds.size).toBeGreaterThan(1);
  });

  it('refuses more folds than groups, or fewer than two', () => {
    expect(() => assignFolds(['a', 'b'], 3, 1)).toThrow(/at least 3 groups/);
    expect(() => assignFolds(['a', 'b'], 1, 1)).toThrow(/at least 2 folds/);
  });
});

describe('scoreOf', () => {
  it('averages doc MRR and answer-hit, counting queries without answers for MRR only', () => {
    const score = scoreOf([outcome('1', 1, 1), outcome('2', 2, undefined), outcome('3', null, 6)], cutoffs);
    expect(score.docMrr).toBeCloseTo(0.5);
    expect(score.answerHit).toBeCloseTo(0.5);
    expect(score.objective).toBeCloseTo(0.5);
    expect(scoreOf([outcome('1', 4, undefined)], cutoffs).objective).toBeCloseTo(0.25);
    expect(scoreOf([outcome('1', undefined, 1)], cutoffs).objective).toBe(1);
  });
});

describe('best', () => {
  it('takes the highest objective, ties to the weight closest to the preferred one, then the smaller', () => {
    expect(
      best(
        [
          { weight: 0, objective: 0.5 },
          { weight: 1, objective: 0.6 },
        ],
        0.5,
      ).weight,
    ).toBe(1);
    expect(
      best(
        [
          { weight: 1, objective: 0.6 },
          { weight: 0.25, objective: 0.6 + 1e-15 },
        ],
        0.5,
      ).weight,
    ).toBe(0.25);
    expect(
      best(
        [
          { weight: 0.75, objective: 0.6 },
          { weight: 0.25, objective: 0.6 },
        ],
        0.5,
      ).weight,
    ).toBe(0.25);
    expect(
      best(
        [
          { weight: 0.5, objective: Number.NaN },
          { weight: 1, objective: 0.1 },
        ],
        0.5,
      ).weight,
    ).toBe(1);
  });
});

describe('crossValidate', () => {
  // Queries 0-3 about article a, 4-7 about b: weight 1 finds a's documents, weight 0 finds b's.
  const keys = ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b'];
  const run = (weight: number, good: string): GridRun => ({
    weight,
    outcomes: keys.map((key, index) => (key === good ? outcome(String(index), 1, 1) : outcome(String(index), null, null))),
  });

  it('scores each fold with the weight chosen on the others', () => {
    const assignment = assignFolds(keys, 2, 1);
    const result = crossValidate([run(0, 'b'), run(1, 'a')], assignment, cutoffs, 0.5);
    for (const fold of result.folds) {
      // Trained on the other article, each fold gets the weight that fails it.
      expect(fold.trainObjective).toBe(1);
      expect(fold.heldOut.objective).toBe(0);
      expect(fold.chosenWeight).toBe(fold.groups[0] === 'a' ? 0 : 1);
    }
    expect(result.pooled.objective).toBe(0);
    expect(result.pooled.queries).toBe(8);
    expect(result.chosen).toEqual({ min: 0, max: 1, mode: 0 });
    expect(result.fullSplit.map((score) => score.objective)).toEqual([0.5, 0.5]);
  });
});
