import { NOT_FOUND_ANSWER } from '../src/llm/chat/compose-extractive-answer.js';
import type { EvalQuery } from './dataset.js';
import { mean, normalizeWhitespace, percentile, prepareAnswers } from './metrics.js';
import type { ParleyClient } from './parley-client.js';

/** One question asked of an agent over the datastore, as the answer came back. */
export interface AnswerOutcome {
  queryId: string;
  latencyMs: number;
  error: string | null;
  answer: string;
  /** The answer contains one of the answer strings (case-insensitive); null for a query without answers. */
  contains: boolean | null;
  /** The answer is the "could not find" sentence. */
  declined: boolean;
}

export interface AnswerMetrics {
  queries: number;
  errors: number;
  /** Queries with answer strings, and the share whose answer contains one: the headline. */
  answeredQueries: number;
  answerContains: number;
  /** Queries the corpus does not answer, and the share the answerer declined (said it could not find). */
  unanswerableQueries: number;
  declinedUnanswerable: number;
  /** Share of queries with answer strings that got the "could not find" sentence. */
  declinedAnswerable: number;
  latencyMs: { p50: number; p95: number; mean: number };
}

/**
 * Asks every query of an agent answering from the datastore with its default model (POST /agents/{id}/query,
 * one at a time) and checks the answer text: for the built-in offline model, how often the sentences it
 * quotes hold the answer, and whether it declines what the corpus does not answer.
 */
export async function evaluateAnswers(
  client: ParleyClient,
  datastoreId: string,
  queries: readonly EvalQuery[],
  onProgress?: (done: number) => void,
): Promise<AnswerOutcome[]> {
  const agent = await client.createAgent(datastoreId);
  // One unmeasured question first: the query embedder and the vector index load on first use.
  const first = queries[0];
  if (first !== undefined) await client.ask(agent.id, first.text).catch(() => undefined);

  const outcomes: AnswerOutcome[] = [];
  for (const query of queries) {
    const started = performance.now();
    let error: string | null = null;
    let answer = '';
    try {
      answer = (await client.ask(agent.id, query.text)).answer;
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
    }
    const latencyMs = performance.now() - started;
    const text = normalizeWhitespace(answer).toLowerCase();
    const answers = prepareAnswers(query.answers).lower;
    outcomes.push({
      queryId: query.id,
      latencyMs,
      error,
      answer,
      contains: answers.length === 0 ? null : answers.some((expected) => text.includes(expected)),
      declined: answer.trim() === NOT_FOUND_ANSWER,
    });
    onProgress?.(outcomes.length);
  }
  return outcomes;
}

export function summarizeAnswers(queries: readonly EvalQuery[], outcomes: readonly AnswerOutcome[]): AnswerMetrics {
  const unanswerable = new Set(queries.filter((query) => query.unanswerable).map((query) => query.id));
  const answered = outcomes.filter((outcome) => outcome.contains !== null);
  const declinable = outcomes.filter((outcome) => unanswerable.has(outcome.queryId));
  const latencies = outcomes.map((outcome) => outcome.latencyMs);
  const tenths = (value: number) => Math.round(value * 10) / 10;
  return {
    queries: outcomes.length,
    errors: outcomes.filter((outcome) => outcome.error !== null).length,
    answeredQueries: answered.length,
    answerContains: mean(answered.map((outcome) => (outcome.contains ? 1 : 0))),
    unanswerableQueries: declinable.length,
    declinedUnanswerable: mean(declinable.map((outcome) => (outcome.declined ? 1 : 0))),
    declinedAnswerable: mean(answered.map((outcome) => (outcome.declined ? 1 : 0))),
    latencyMs: { p50: tenths(percentile(latencies, 50)), p95: tenths(percentile(latencies, 95)), mean: tenths(mean(latencies)) },
  };
}

/** The answers that missed: an answerable query without its answer, an unanswerable one answered. */
export function answerFailures(queries: readonly EvalQuery[], outcomes: readonly AnswerOutcome[]) {
  const byId = new Map(queries.map((query) => [query.id, query]));
  return outcomes
    .filter((outcome) => outcome.contains === false || (byId.get(outcome.queryId)?.unanswerable === true && !outcome.declined))
    .map((outcome) => ({ queryId: outcome.queryId, text: byId.get(outcome.queryId)?.text ?? '', answer: outcome.answer }));
}
