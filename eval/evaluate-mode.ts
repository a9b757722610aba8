import type { EvalQuery } from './dataset.js';
import {
  distinctDocuments,
  documentRecall,
  firstAnswerRank,
  firstRelevantRank,
  mean,
  percentile,
  prepareAnswers,
  reciprocalRank,
} from './metrics.js';
import type { ParleyClient, RetrievalMode, SearchHit } from './parley-client.js';

export interface Cutoffs {
  /** Hits asked for, and the document-metric cutoff (recall@k, MRR@k). */
  topK: number;
  /** Cutoff of the headline answer-hit metric. */
  answerK: number;
}

/** What one query returned in one mode, reduced to what the metrics and the failure list need. */
export interface QueryOutcome {
  queryId: string;
  latencyMs: number;
  /** The API refused or failed; the query then counts as finding nothing. */
  error: string | null;
  /** custom_id of each hit, as returned. */
  hitCustomIds: (string | null)[];
  judged: boolean;
  recall: number;
  /** Rank of the first judged document among distinct documents; null when not in the top k. */
  docRank: number | null;
  /** Same, counted over raw hits (several chunks of one document take several ranks). */
  hitRank: number | null;
  answered: boolean;
  /** Rank of the first hit containing an answer (case-insensitive), within the top k; null when none. */
  answerRank: number | null;
  answerRankCaseSensitive: number | null;
}

export interface ModeMetrics {
  queries: number;
  errors: number;
  judgedQueries: number;
  /** Mean document recall@topK (distinct documents of the hits). */
  recall: number;
  /** MRR@topK over distinct documents: the headline "doc MRR". */
  docMrr: number;
  /** MRR@topK over raw hits. */
  hitMrr: number;
  answeredQueries: number;
  /** Share of answered queries with an answer in the top answerK hits, case-insensitive: the headline. */
  answerHit: number;
  answerHitCaseSensitive: number;
  /** Same, within all topK hits, case-insensitive. */
  answerHitAtTopK: number;
  latencyMs: { p50: number; p95: number; mean: number };
}

/** Runs every query in `mode`, one at a time so latencies are not inflated by each other. */
export async function evaluateMode(
  client: ParleyClient,
  datastoreId: string,
  queries: readonly EvalQuery[],
  mode: RetrievalMode,
  cutoffs: Cutoffs,
  onProgress?: (done: number) => void,
): Promise<QueryOutcome[]> {
  // One unmeasured query first: the vector index and the query embedder load on first use.
  const first = queries[0];
  if (first !== undefined) await client.query(datastoreId, { query: first.text, topK: cutoffs.topK, mode }).catch(() => undefined);

  const outcomes: QueryOutcome[] = [];
  for (const query of queries) {
    const started = performance.now();
    let error: string | null = null;
    let hits: SearchHit[] = [];
    try {
      hits = await client.query(datastoreId, { query: query.text, topK: cutoffs.topK, mode });
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
    }
    const latencyMs = performance.now() - started;
    const scored = hits.map((hit) => ({ customId: hit.custom_id, text: hit.text }));
    const answers = prepareAnswers(query.answers);
    outcomes.push({
      queryId: query.id,
      latencyMs,
      error,
      hitCustomIds: scored.map((hit) => hit.customId),
      judged: query.relevant.size > 0,
      recall: documentRecall(scored, query.relevant, cutoffs.topK),
      docRank: firstRelevantRank(scored, query.relevant, cutoffs.topK, 'documents'),
      hitRank: firstRelevantRank(scored, query.relevant, cutoffs.topK, 'hits'),
      answered: answers.exact.length > 0,
      answerRank: firstAnswerRank(scored, answers, cutoffs.topK, false),
      answerRankCaseSensitive: firstAnswerRank(scored, answers, cutoffs.topK, true),
    });
    onProgress?.(outcomes.length);
  }
  return outcomes;
}

const tenths = (value: number): number => Math.round(value * 10) / 10;

const within = (rank: number | null, k: number): number => (rank !== null && rank <= k ? 1 : 0);

export function summarize(outcomes: readonly QueryOutcome[], cutoffs: Cutoffs): ModeMetrics {
  const judged = outcomes.filter((outcome) => outcome.judged);
  const answered = outcomes.filter((outcome) => outcome.answered);
  const latencies = outcomes.map((outcome) => outcome.latencyMs);
  return {
    queries: outcomes.length,
    errors: outcomes.filter((outcome) => outcome.error !== null).length,
    judgedQueries: judged.length,
    recall: mean(judged.map((outcome) => outcome.recall)),
    docMrr: mean(judged.map((outcome) => reciprocalRank(outcome.docRank))),
    hitMrr: mean(judged.map((outcome) => reciprocalRank(outcome.hitRank))),
    answeredQueries: answered.length,
    answerHit: mean(answered.map((outcome) => within(outcome.answerRank, cutoffs.answerK))),
    answerHitCaseSensitive: mean(answered.map((outcome) => within(outcome.answerRankCaseSensitive, cutoffs.answerK))),
    answerHitAtTopK: mean(answered.map((outcome) => within(outcome.answerRank, cutoffs.topK))),
    latencyMs: { p50: tenths(percentile(latencies, 50)), p95: tenths(percentile(latencies, 95)), mean: tenths(mean(latencies)) },
  };
}

/** The distinct documents a query's hits came from, best first. */
export const documentsOf = (outcome: QueryOutcome): string[] => distinctDocuments(outcome.hitCustomIds.map((customId) => ({ customId, text: '' })));
