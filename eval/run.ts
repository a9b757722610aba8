/**
 * `npm run eval`: retrieval quality of Parley on a BEIR-style corpus, measured through the HTTP API.
 * See eval/README.md for the flags and what each metric means.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { measureAnswerCoverage, type AnswerCoverage } from './answer-coverage.js';
import { answerFailures, evaluateAnswers, summarizeAnswers, type AnswerMetrics } from './evaluate-answers.js';
import { evaluateMode, summarize, type ModeMetrics, type QueryOutcome } from './evaluate-mode.js';
import type { RetrievalMode } from './parley-client.js';
import { METRIC_NOTES, detailsOf, fixed, formatAnswers, formatTable, hybridFailures, runSummary, type Results, type RunConfig } from './report.js';
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
  type FusionWeightsChange,
} from './session.js';

const ALL_MODES: readonly RetrievalMode[] = ['vector', 'keyword', 'hybrid'];
/** Not a retrieval mode: each question asked of an agent (the built-in offline model unless configured). */
const ANSWER_MODE = 'answer';

const USAGE = `Usage: npm run eval -- [options]
${DATA_USAGE}
  --modes LIST         comma-separated subset of vector,keyword,hybrid,answer (default: all four); answer asks
                       each question of an agent over the datastore and checks the answer text
  --weights V,K        hybrid fusion weights of the vector and keyword engines (datastore vectorWeight,
                       keywordWeight), set for this run; default: the datastore's own
  --out FILE           results file (default eval/results.json)
  --details FILE       also write every query's outcome in every mode
  --help`;

interface Options extends DataOptions {
  modes: RetrievalMode[];
  answers: boolean;
  weights?: FusionWeightsChange;
  out: string;
  details?: string;
}

function readOptions(argv: string[]): Options | undefined {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...DATA_FLAGS,
      modes: { type: 'string' },
      weights: { type: 'string' },
      out: { type: 'string' },
      details: { type: 'string' },
    },
  });
  if (values.help) return undefined;
  const data = readDataOptions(values);
  const modes = values.modes === undefined ? [...ALL_MODES, ANSWER_MODE] : values.modes.split(',').map((mode) => mode.trim());
  const unknown = modes.filter((mode) => mode !== ANSWER_MODE && !ALL_MODES.some((known) => known === mode));
  if (unknown.length > 0) throw new UsageError(`--modes: unknown ${unknown.join(', ')}; use ${[...ALL_MODES, ANSWER_MODE].join(', ')}`);
  const weights = values.weights?.split(',').map(Number);
  if (weights !== undefined && (weights.length !== 2 || weights.some((weight) => !Number.isFinite(weight) || weight < 0))) {
    throw new UsageError(`--weights must be two non-negative numbers, vector,keyword; got "${values.weights}"`);
  }
  return {
    ...data,
    modes: ALL_MODES.filter((mode) => modes.includes(mode)),
    answers: modes.includes(ANSWER_MODE),
    weights: weights === undefined ? undefined : { vectorWeight: weights[0]!, keywordWeight: weights[1]! },
    out: path.resolve(values.out ?? path.join(import.meta.dirname, 'results.json')),
    details: values.details === undefined ? undefined : path.resolve(values.details),
  };
}

async function main(options: Options): Promise<void> {
  const { dataset, queries } = await loadQueries(options);
  await withEvalSession(options, dataset, async (session) => {
    const { client, datastoreId, datasources } = session;
    if (options.weights !== undefined) await session.setWeights(options.weights);
    const { embeddingModel, fusionWeights } = await session.describeDatastore();

    const coverage: AnswerCoverage | null = queries.some((query) => query.answers.length > 0)
      ? await measureAnswerCoverage(client, datasources, dataset.documents, queries)
      : null;

    const outcomes: Partial<Record<RetrievalMode, QueryOutcome[]>> = {};
    const metrics: Partial<Record<RetrievalMode, ModeMetrics>> = {};
    for (const mode of options.modes) {
      const started = performance.now();
      const step = Math.max(1, Math.ceil(queries.length / 4));
      outcomes[mode] = await evaluateMode(client, datastoreId, queries, mode, options.cutoffs, (done) => {
        if (done % step === 0 && done < queries.length) log(`${mode}: ${done}/${queries.length}`);
      });
      metrics[mode] = summarize(outcomes[mode], options.cutoffs);
      log(`${mode}: ${queries.length} queries in ${seconds(performance.now() - started)}`);
    }

    let answers: { metrics: AnswerMetrics; failures: ReturnType<typeof answerFailures> } | undefined;
    if (options.answers) {
      const started = performance.now();
      const step = Math.max(1, Math.ceil(queries.length / 4));
      const outcomes = await evaluateAnswers(client, datastoreId, queries, (done) => {
        if (done % step === 0 && done < queries.length) log(`answer: ${done}/${queries.length}`);
      });
      answers = { metrics: summarizeAnswers(queries, outcomes), failures: answerFailures(queries, outcomes) };
      log(`answer: ${queries.length} queries in ${seconds(performance.now() - started)}`);
    }

    const config: RunConfig = {
      ...session.dataConfig(queries.length),
      ...(embeddingModel === undefined ? {} : { embeddingModel }),
      ...(fusionWeights === undefined ? {} : { fusionWeights }),
      modes: options.modes,
    };
    const results: Results = {
      generatedAt: new Date().toISOString(),
      config,
      notes: METRIC_NOTES(options.cutoffs),
      answerCoverage: coverage,
      metrics,
      hybridFailures: outcomes.hybrid === undefined ? [] : hybridFailures(queries, outcomes.hybrid, options.cutoffs),
      ...(answers === undefined ? {} : { answers: answers.metrics, answerFailures: answers.failures }),
    };
    await fs.writeFile(options.out, JSON.stringify(results, null, 2) + '\n');
    if (options.details !== undefined) await fs.writeFile(options.details, JSON.stringify(detailsOf(queries, outcomes), null, 2) + '\n');

    const { topK, answerK } = options.cutoffs;
    const fusion = fusionWeights === undefined ? '' : `, fusion weights vector ${fusionWeights.vector} / keyword ${fusionWeights.keyword}`;
    console.log(`\n${runSummary(config, options.modes[0] === undefined ? undefined : metrics[options.modes[0]], fusion)}\n`);
    if (options.modes.length > 0) console.log(formatTable(metrics, options.cutoffs));
    if (answers !== undefined) console.log(`\n${formatAnswers(answers.metrics)}`);
    console.log(
      `\nR@${topK}, docMRR@${topK}: judged article among the DISTINCT documents of the top ${topK} hits (headline MRR); ` +
        `hitMRR@${topK}: rank counted over raw hits (chunks).`,
    );
    console.log(`ans@${answerK}: an answer string in a top-${answerK} hit, whitespace-normalised, case-insensitive (cs: case-sensitive).`);
    if (coverage !== null) {
      console.log(
        `answer ceilings: in the judged article ${fixed(coverage.inDocument, 3)}, whole inside one chunk of it ${fixed(coverage.inOneChunk, 3)}`,
      );
    }
    console.log(`\nwrote ${relative(options.out)}${options.details === undefined ? '' : ` and ${relative(options.details)}`}`);
  });
}

await runCli(USAGE, readOptions, main);
