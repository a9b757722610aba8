/**
 * `npx tsx eval/cross-validate.ts`: k-fold cross-validation of the hybrid fusion weight. Every query is
 * run in hybrid mode once per candidate vector weight; folds are grouped by judged article; each fold is
 * scored with the weight that does best on the other folds. See eval/README.md.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_FUSION_WEIGHTS } from '../src/rag/retrieve/retriever.js';
import { assignFolds, best, crossValidate, groupOf, type GridRun, type Score } from './cross-validation.js';
import { evaluateMode } from './evaluate-mode.js';
import { METRIC_NOTES, alignColumns, fixed, runSummary, type DataConfig } from './report.js';
import {
  DATA_FLAGS,
  DATA_USAGE,
  UsageError,
  loadQueries,
  log,
  readDataOptions,
  relative,
  runCli,
  seconds,
  withEvalSession,
  type DataOptions,
} from './session.js';

const DEFAULT_GRID = [0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 1, 1.25, 1.5];
/** The API's bounds on a fusion weight. */
const MAX_WEIGHT = 10;
/** Ties between weights go to the one closest to the datastore default; the keyword weight stays the default. */
const PREFERRED = DEFAULT_FUSION_WEIGHTS.vector;
const KEYWORD_WEIGHT = DEFAULT_FUSION_WEIGHTS.keyword;

const USAGE = `Usage: npx tsx eval/cross-validate.ts [options]
${DATA_USAGE}
  --folds K            folds, grouped by judged article (default 5)
  --grid LIST          candidate vector weights, comma-separated; the keyword weight stays ${KEYWORD_WEIGHT}
                       (default ${DEFAULT_GRID.join(',')})
  --seed N             seed of the fold assignment (default 1)
  --out FILE           results file (default eval/cross-validation.json)
  --help`;

interface CrossValidationConfig extends DataConfig {
  mode: 'hybrid';
  folds: number;
  /** Distinct groups (judged articles) the folds are made of. */
  groups: number;
  seed: number;
  grid: number[];
  keywordWeight: number;
  tieBreakToward: number;
  /** The datastore's own weights, put back at the end on a kept store. */
  datastoreWeights?: { vector: number; keyword: number };
}

interface Options extends DataOptions {
  folds: number;
  grid: number[];
  seed: number;
  out: string;
}

function readOptions(argv: string[]): Options | undefined {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...DATA_FLAGS,
      folds: { type: 'string' },
      grid: { type: 'string' },
      seed: { type: 'string' },
      out: { type: 'string' },
    },
  });
  if (values.help) return undefined;
  const data = readDataOptions(values);
  const folds = values.folds === undefined ? 5 : Number(values.folds);
  if (!Number.isInteger(folds) || folds < 2) throw new UsageError(`--folds must be an integer of at least 2, got "${values.folds}"`);
  const seed = values.seed === undefined ? 1 : Number(values.seed);
  if (!/^\d+$/.test(values.seed ?? '1') || seed > 0xffffffff)
    throw new UsageError(`--seed must be an integer from 0 to 2^32-1, got "${values.seed}"`);
  const grid = values.grid === undefined ? DEFAULT_GRID : values.grid.split(',').map((weight) => Number(weight.trim()));
  if (grid.length === 0 || grid.some((weight) => !Number.isFinite(weight) || weight < 0 || weight > MAX_WEIGHT)) {
    throw new UsageError(`--grid must list vector weights from 0 to ${MAX_WEIGHT}, comma-separated; got "${values.grid}"`);
  }
  return {
    ...data,
    folds,
    grid: [...new Set(grid)].sort((a, b) => a - b),
    seed,
    out: path.resolve(values.out ?? path.join(import.meta.dirname, 'cross-validation.json')),
  };
}

/** What the results file keeps of a score. */
const figures = (score: Score) => ({
  queries: score.queries,
  docMrr: score.docMrr,
  answerHit: score.answerHit,
  objective: score.objective,
  recall: score.recall,
  errors: score.errors,
});

async function main(options: Options): Promise<void> {
  const { dataset, queries } = await loadQueries(options);
  const groupKeys = queries.map(groupOf);
  const groupCount = new Set(groupKeys).size;
  if (options.folds > groupCount) throw new UsageError(`--folds ${options.folds}: there are only ${groupCount} groups (judged articles) to spread`);
  const assignment = assignFolds(groupKeys, options.folds, options.seed);

  // The query-vector cache stays on (last argument): each query is asked once per weight with the same
  // vector, so the cache saves embedding time only, and latency is not measured here.
  await withEvalSession(
    options,
    dataset,
    async (session) => {
      const runs: GridRun[] = [];
      for (const [index, weight] of options.grid.entries()) {
        const started = performance.now();
        await session.setWeights({ vectorWeight: weight, keywordWeight: KEYWORD_WEIGHT });
        const outcomes = await evaluateMode(session.client, session.datastoreId, queries, 'hybrid', options.cutoffs);
        runs.push({ weight, outcomes });
        log(`weight ${weight} (${index + 1}/${options.grid.length}): ${queries.length} queries in ${seconds(performance.now() - started)}`);
      }
      const { embeddingModel } = await session.describeDatastore();
      const result = crossValidate(runs, assignment, options.cutoffs, PREFERRED);
      const fullSplitBest = best(result.fullSplit, PREFERRED);
      const errors = result.fullSplit.reduce((total, score) => total + score.errors, 0);
      if (errors > 0) log(`warning: ${errors} queries failed (counted as finding nothing); see the errors column`);

      const config: CrossValidationConfig = {
        ...session.dataConfig(queries.length),
        ...(embeddingModel === undefined ? {} : { embeddingModel }),
        mode: 'hybrid',
        folds: options.folds,
        groups: groupCount,
        seed: options.seed,
        grid: options.grid,
        keywordWeight: KEYWORD_WEIGHT,
        tieBreakToward: PREFERRED,
        ...(session.originalWeights === undefined ? {} : { datastoreWeights: session.originalWeights }),
      };
      const { topK, answerK } = options.cutoffs;
      const notes = METRIC_NOTES(options.cutoffs);
      const results = {
        generatedAt: new Date().toISOString(),
        config,
        notes: {
          docMrr: notes.docMrr,
          answerHit: notes.answerHit,
          recall: notes.recall,
          objective: `mean of docMrr@${topK} (judged queries) and answerHit@${answerK} (queries with answers), each over the queries scored`,
          folds:
            'queries grouped by their first judged document (a query without one is its own group); groups shuffled by the seed, ' +
            'then placed largest first into the fold with the fewest queries',
          choice: `each fold is scored with the grid weight of highest objective on the other folds; ties go to the weight closest to ${PREFERRED}, then the smaller`,
          pooledHeldOut: 'every query scored with the weight chosen without its fold',
          fullSplit: 'every grid weight over all queries: in-sample, so the best of them is an optimistic estimate',
        },
        folds: result.folds.map((fold) => ({
          fold: fold.fold,
          groupCount: fold.groups.length,
          chosenWeight: fold.chosenWeight,
          trainObjective: fold.trainObjective,
          heldOut: figures(fold.heldOut),
          trainObjectives: fold.trainObjectives,
          groups: fold.groups,
        })),
        pooledHeldOut: figures(result.pooled),
        chosenWeights: result.chosen,
        fullSplitBest: { vectorWeight: fullSplitBest.weight, objective: fullSplitBest.objective },
        fullSplit: result.fullSplit.map((score) => ({ vectorWeight: score.weight, keywordWeight: KEYWORD_WEIGHT, ...figures(score) })),
      };
      await fs.writeFile(options.out, JSON.stringify(results, null, 2) + '\n');

      const three = (value: number) => fixed(value, 3);
      console.log(`\n${runSummary(config, result.pooled, `, hybrid, keyword weight ${KEYWORD_WEIGHT}`)}`);
      const unjudged = queries.filter((query) => query.relevant.size === 0).length;
      const groups = `${groupCount - unjudged} articles${unjudged === 0 ? '' : ` and ${unjudged} unjudged ${unjudged === 1 ? 'query' : 'queries'}, each a group`}`;
      console.log(`${options.folds} folds by judged article (${groups}), seed ${options.seed}; grid ${options.grid.join(', ')}\n`);
      console.log(
        alignColumns(
          ['fold', 'queries', 'groups', 'weight', 'train obj', `docMRR@${topK}`, `ans@${answerK}`, 'held obj'],
          result.folds.map((fold) => [
            String(fold.fold),
            String(fold.heldOut.queries),
            String(fold.groups.length),
            String(fold.chosenWeight),
            three(fold.trainObjective),
            three(fold.heldOut.docMrr),
            three(fold.heldOut.answerHit),
            three(fold.heldOut.objective),
          ]),
        ),
      );
      const { pooled, chosen } = result;
      console.log(
        `\npooled held-out (${pooled.queries} queries): docMRR@${topK} ${three(pooled.docMrr)}, ans@${answerK} ${three(pooled.answerHit)}, ` +
          `R@${topK} ${three(pooled.recall)}, objective ${three(pooled.objective)}`,
      );
      console.log(`chosen weights: min ${chosen.min}, max ${chosen.max}, mode ${chosen.mode}\n`);
      console.log(`full split, every weight (in-sample; * marks the best, optimistic):`);
      console.log(
        alignColumns(
          ['weight', `R@${topK}`, `docMRR@${topK}`, `ans@${answerK}`, 'objective', 'errors'],
          result.fullSplit.map((score) => [
            `${score.weight}${score === fullSplitBest ? ' *' : ''}`,
            three(score.recall),
            three(score.docMrr),
            three(score.answerHit),
            three(score.objective),
            String(score.errors),
          ]),
        ),
      );
      console.log(`\nobjective: mean of docMRR@${topK} and ans@${answerK}; wrote ${relative(options.out)}`);
    },
    { queryCacheSize: Math.max(1000, queries.length) },
  );
}

await runCli(USAGE, readOptions, main);
