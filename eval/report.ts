import type { AnswerCoverage } from './answer-coverage.js';
import type { EvalQuery } from './dataset.js';
import type { AnswerMetrics, answerFailures } from './evaluate-answers.js';
import { documentsOf, type Cutoffs, type ModeMetrics, type QueryOutcome } from './evaluate-mode.js';
import type { RetrievalMode } from './parley-client.js';

/** The data, store and ingestion part of a results file's configuration, common to the evaluation scripts. */
export interface DataConfig {
  corpus: string;
  queries: string;
  qrels: string;
  documents: number;
  /** Queries evaluated (with a judgment, answers or both). */
  evaluatedQueries: number;
  skippedQueries: number;
  store: string;
  chunking: { tokens: number; overlapTokens: number };
  /** From GET /datastores/{id} when the API exposes it. */
  embeddingModel?: string;
  cutoffs: Cutoffs;
  /** `codeChangedSince`: a kept store reused with --ignore-code-changes although the ingestion code changed. */
  ingestion: { ms: number | null; cached: boolean; codeChangedSince?: boolean; chunks: number };
}

export interface RunConfig extends DataConfig {
  /** Hybrid fusion weights of the datastore, when the API exposes them. */
  fusionWeights?: { vector: number; keyword: number };
  modes: RetrievalMode[];
}

export interface HybridFailure {
  queryId: string;
  text: string;
  judged: string[];
  /** document: no judged document in the top k; answer: no answer string in the top answerK hits. */
  misses: ('document' | 'answer')[];
  /** Rank of the judged document among distinct documents, when found. */
  docRank: number | null;
  /** custom_id of the first three hits, as returned (a document may repeat). */
  top3: (string | null)[];
  error?: string;
}

export interface Results {
  generatedAt: string;
  config: RunConfig;
  /** How to read the two MRR figures. */
  notes: Record<string, string>;
  answerCoverage: AnswerCoverage | null;
  metrics: Partial<Record<RetrievalMode, ModeMetrics>>;
  hybridFailures: HybridFailure[];
  /** Mode `answer`: the answers' metrics, and the questions it got wrong with what it answered. */
  answers?: AnswerMetrics;
  answerFailures?: ReturnType<typeof answerFailures>;
}

export const METRIC_NOTES = (cutoffs: Cutoffs): Record<string, string> => ({
  recall: `document-level recall@${cutoffs.topK}: share of the judged documents among the distinct custom_ids of the top ${cutoffs.topK} hits`,
  docMrr: `headline doc MRR@${cutoffs.topK}: 1/rank of the first judged document, ranks counted over DISTINCT documents in order of first appearance`,
  hitMrr: `raw-hit MRR@${cutoffs.topK}: 1/rank of the first hit from a judged document, ranks counted over hits as returned (chunks)`,
  answerHit: `answer-hit@${cutoffs.answerK}: a top-${cutoffs.answerK} hit's text contains an answer string, both whitespace-normalised, case-insensitive (answerHitCaseSensitive: exact case)`,
  answerHitAtTopK: `answer-hit@${cutoffs.topK}, case-insensitive`,
  latencyMs: 'client-measured time of POST /datastores/{id}/query, queries sent one at a time; nearest-rank percentiles',
  answerCoverage: 'ceilings for answer-hit: answer inside the judged document at all / whole inside one of its chunks',
});

export function hybridFailures(queries: readonly EvalQuery[], outcomes: readonly QueryOutcome[], cutoffs: Cutoffs): HybridFailure[] {
  const queryById = new Map(queries.map((query) => [query.id, query]));
  return outcomes.flatMap((outcome) => {
    const query = queryById.get(outcome.queryId)!;
    const misses: HybridFailure['misses'] = [];
    if (outcome.judged && outcome.docRank === null) misses.push('document');
    if (outcome.answered && (outcome.answerRank === null || outcome.answerRank > cutoffs.answerK)) misses.push('answer');
    if (misses.length === 0 && outcome.error === null) return [];
    return [
      {
        queryId: outcome.queryId,
        text: query.text,
        judged: [...query.relevant],
        misses,
        docRank: outcome.docRank,
        top3: outcome.hitCustomIds.slice(0, 3),
        ...(outcome.error === null ? {} : { error: outcome.error }),
      },
    ];
  });
}

export const fixed = (value: number, digits: number) => (Number.isNaN(value) ? '–' : value.toFixed(digits));

/** The lines above a results table: corpus, chunks, store (and `extra`), ingestion time, queries. */
export function runSummary(config: DataConfig, metrics: Pick<ModeMetrics, 'judgedQueries' | 'answeredQueries'> | undefined, extra = ''): string {
  const chunking = `${config.ingestion.chunks} chunks (${config.chunking.tokens}/${config.chunking.overlapTokens} tokens)`;
  const ingestion = config.ingestion.ms === null ? '?' : `${(config.ingestion.ms / 1000).toFixed(1)} s`;
  return [
    `${config.corpus}: ${config.documents} documents, ${chunking}, store ${config.store}${extra}`,
    `ingestion: ${ingestion}${config.ingestion.cached ? ' (cached)' : ''}`,
    `queries: ${config.evaluatedQueries} (${metrics?.judgedQueries ?? 0} judged, ${metrics?.answeredQueries ?? 0} with answers)`,
  ].join('\n');
}

/** Columns padded to their widest cell, the first left-aligned and the others right-aligned, under a rule. */
export function alignColumns(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

/** The mode × metric table printed at the end of a run. */
export function formatTable(metrics: Partial<Record<RetrievalMode, ModeMetrics>>, cutoffs: Cutoffs): string {
  const { topK, answerK } = cutoffs;
  const header = [
    'mode',
    `R@${topK}`,
    `docMRR@${topK}`,
    `hitMRR@${topK}`,
    `ans@${answerK}`,
    `ans@${answerK} cs`,
    `ans@${topK}`,
    'p50 ms',
    'p95 ms',
    'errors',
  ];
  const rows = Object.entries(metrics).map(([mode, m]) => [
    mode,
    fixed(m.recall, 3),
    fixed(m.docMrr, 3),
    fixed(m.hitMrr, 3),
    fixed(m.answerHit, 3),
    fixed(m.answerHitCaseSensitive, 3),
    fixed(m.answerHitAtTopK, 3),
    fixed(m.latencyMs.p50, 1),
    fixed(m.latencyMs.p95, 1),
    String(m.errors),
  ]);
  return alignColumns(header, rows);
}

/** The answer mode's line: answer-contains, what it declined, latency. */
export function formatAnswers(m: AnswerMetrics): string {
  const header = ['answers', 'contains', 'declined (answerable)', 'declined (unanswerable)', 'p50 ms', 'p95 ms', 'errors'];
  const row = [
    `${m.queries} asked`,
    `${fixed(m.answerContains, 3)} of ${m.answeredQueries}`,
    fixed(m.declinedAnswerable, 3),
    m.unanswerableQueries === 0 ? '–' : `${fixed(m.declinedUnanswerable, 3)} of ${m.unanswerableQueries}`,
    fixed(m.latencyMs.p50, 1),
    fixed(m.latencyMs.p95, 1),
    String(m.errors),
  ];
  return alignColumns(header, [row]);
}

/** Per-query outcomes of every mode, for `--details`: enough to compare modes query by query. */
export function detailsOf(queries: readonly EvalQuery[], outcomes: Partial<Record<RetrievalMode, QueryOutcome[]>>) {
  return queries.map((query, index) => ({
    queryId: query.id,
    text: query.text,
    judged: [...query.relevant],
    answers: query.answers,
    modes: Object.fromEntries(
      Object.entries(outcomes).map(([mode, list]) => {
        const outcome = list[index]!;
        return [
          mode,
          {
            docRank: outcome.docRank,
            hitRank: outcome.hitRank,
            answerRank: outcome.answerRank,
            latencyMs: Math.round(outcome.latencyMs * 10) / 10,
            documents: documentsOf(outcome),
            error: outcome.error,
          },
        ];
      }),
    ),
  }));
}
