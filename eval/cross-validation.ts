/**
 * K-fold cross-validation of one tuned setting (the hybrid vector weight) over per-query outcomes already
 * measured at every candidate value: folds grouped by judged document, the value chosen on the other
 * folds, the held-out fold scored with it. Pure functions; `cross-validate.ts` feeds them.
 */
import { seededRandom } from '../test/support/seeded-random.js';
import type { EvalQuery } from './dataset.js';
import { summarize, type Cutoffs, type QueryOutcome } from './evaluate-mode.js';

/** Values closer than this count as equal (sums of the same terms in another order differ in the last bits). */
const TIE = 1e-12;

/**
 * The group a query is kept with: its first judged document (all questions about one article land in the
 * same fold), or the query alone when nothing is judged.
 */
export function groupOf(query: EvalQuery): string {
  const [first] = query.relevant;
  return first === undefined ? `query:${query.id}` : first;
}

export interface FoldAssignment {
  /** Fold (0-based) of each query, in the order of the queries given. */
  foldOf: number[];
  /** The groups of each fold, in the order they were placed. */
  groups: string[][];
}

/**
 * Splits queries into `folds` folds, every group whole in one fold, balanced by question count: groups
 * are shuffled by `seed` (from their sorted keys, so the query order does not matter), ordered largest
 * first (the shuffle breaks ties between equal sizes), and each goes to the fold with the fewest questions
 * so far (the lowest-numbered of those).
 */
export function assignFolds(groupKeys: readonly string[], folds: number, seed: number): FoldAssignment {
  const sizes = new Map<string, number>();
  for (const key of groupKeys) sizes.set(key, (sizes.get(key) ?? 0) + 1);
  if (!Number.isInteger(folds) || folds < 2) throw new Error(`need at least 2 folds, got ${folds}`);
  if (folds > sizes.size) throw new Error(`${folds} folds need at least ${folds} groups, and there are ${sizes.size}`);

  const keys = [...sizes.keys()].sort();
  const random = seededRandom(seed);
  for (let index = keys.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [keys[index], keys[other]] = [keys[other]!, keys[index]!];
  }
  keys.sort((a, b) => sizes.get(b)! - sizes.get(a)!); // stable: equal sizes keep their shuffled order

  const groups: string[][] = Array.from({ length: folds }, () => []);
  const counts: number[] = new Array<number>(folds).fill(0);
  const foldOfGroup = new Map<string, number>();
  for (const key of keys) {
    const fold = counts.indexOf(Math.min(...counts));
    groups[fold]!.push(key);
    counts[fold]! += sizes.get(key)!;
    foldOfGroup.set(key, fold);
  }
  return { foldOf: groupKeys.map((key) => foldOfGroup.get(key)!), groups };
}

/** What a set of outcomes scores: the two headline metrics and the objective they make. */
export interface Score {
  queries: number;
  judgedQueries: number;
  answeredQueries: number;
  recall: number;
  docMrr: number;
  answerHit: number;
  /** Mean of docMrr and answerHit; the one of them that is measured when the other is not (NaN: neither). */
  objective: number;
  errors: number;
}

export function scoreOf(outcomes: readonly QueryOutcome[], cutoffs: Cutoffs): Score {
  const metrics = summarize(outcomes, cutoffs);
  const measured = [metrics.docMrr, metrics.answerHit].filter((value) => !Number.isNaN(value));
  return {
    queries: metrics.queries,
    judgedQueries: metrics.judgedQueries,
    answeredQueries: metrics.answeredQueries,
    recall: metrics.recall,
    docMrr: metrics.docMrr,
    answerHit: metrics.answerHit,
    objective: measured.length === 0 ? Number.NaN : measured.reduce((total, value) => total + value, 0) / measured.length,
    errors: metrics.errors,
  };
}

/**
 * The candidate with the highest objective; among equal ones the closest to `preferred`, then the
 * smaller. Candidates whose objective is NaN (nothing measured) lose to any measured one.
 */
export function best<T extends { weight: number; objective: number }>(candidates: readonly T[], preferred: number): T {
  if (candidates.length === 0) throw new Error('no candidates');
  const rank = (candidate: T) => (Number.isNaN(candidate.objective) ? Number.NEGATIVE_INFINITY : candidate.objective);
  return candidates.reduce((winner, candidate) => {
    const [mine, theirs] = [rank(candidate), rank(winner)];
    if (mine !== theirs && !(Math.abs(mine - theirs) <= TIE)) return mine > theirs ? candidate : winner;
    const distance = Math.abs(candidate.weight - preferred) - Math.abs(winner.weight - preferred);
    if (Math.abs(distance) > TIE) return distance < 0 ? candidate : winner;
    return candidate.weight < winner.weight ? candidate : winner;
  });
}

/** Outcomes of every query at one candidate weight, in the order of the queries. */
export interface GridRun {
  weight: number;
  outcomes: QueryOutcome[];
}

export interface FoldResult {
  fold: number;
  /** Groups (judged articles) of the held-out fold. */
  groups: string[];
  chosenWeight: number;
  /** The objective of the chosen weight on the other folds. */
  trainObjective: number;
  /** The objective of every grid weight on the other folds, in grid order: how clear the choice was. */
  trainObjectives: { weight: number; objective: number }[];
  heldOut: Score;
}

export interface CrossValidation {
  folds: FoldResult[];
  /** Every query scored with the weight chosen without its fold. */
  pooled: Score;
  chosen: { min: number; max: number; mode: number };
  /** Every candidate over all the queries (an in-sample figure: the best of them is optimistic). */
  fullSplit: (Score & { weight: number })[];
}

const pick = <T>(items: readonly T[], indexes: readonly number[]): T[] => indexes.map((index) => items[index]!);

export function crossValidate(grid: readonly GridRun[], assignment: FoldAssignment, cutoffs: Cutoffs, preferred: number): CrossValidation {
  const { foldOf, groups } = assignment;
  const all = foldOf.map((_, index) => index);
  const folds: FoldResult[] = [];
  const pooled: QueryOutcome[] = [];
  groups.forEach((foldGroups, fold) => {
    const held = all.filter((index) => foldOf[index] === fold);
    const train = all.filter((index) => foldOf[index] !== fold);
    const candidates = grid.map((run) => ({ run, weight: run.weight, objective: scoreOf(pick(run.outcomes, train), cutoffs).objective }));
    const chosen = best(candidates, preferred);
    const heldOutcomes = pick(chosen.run.outcomes, held);
    pooled.push(...heldOutcomes);
    folds.push({
      fold: fold + 1,
      groups: foldGroups,
      chosenWeight: chosen.weight,
      trainObjective: chosen.objective,
      trainObjectives: candidates.map(({ weight, objective }) => ({ weight, objective })),
      heldOut: scoreOf(heldOutcomes, cutoffs),
    });
  });

  const weights = folds.map((fold) => fold.chosenWeight);
  const frequency = (weight: number) => weights.filter((other) => other === weight).length;
  const mode = best(
    [...new Set(weights)].map((weight) => ({ weight, objective: frequency(weight) })),
    preferred,
  ).weight;
  return {
    folds,
    pooled: scoreOf(pooled, cutoffs),
    chosen: { min: Math.min(...weights), max: Math.max(...weights), mode },
    fullSplit: grid.map((run) => ({ weight: run.weight, ...scoreOf(run.outcomes, cutoffs) })),
  };
}
