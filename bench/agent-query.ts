import fs from 'node:fs';
import path from 'node:path';
import type { IngestedDatastore } from './ingestion.js';
import { expectOk, stringField } from './in-process-parley.js';
import { figure, ms, ratio, goal, type Figure, type Goal } from './figures.js';
import { summarizeLatencies, timed, type LatencySummary } from './latency.js';

/** The model name the bench configures to answer at once from a loopback server (see run.ts). */
export const INSTANT_MODEL = 'instant';

export interface AgentQueryResult {
  queries: Figure;
  chunksInDatastore: Figure;
  /** POST /datastores/{id}/query in hybrid mode: the retrieval the answer path also runs. */
  retrieval: LatencySummary;
  /** Whole POST /agents/{id}/query with a model that answers at once (loopback, no delay). */
  instantAnswer: LatencySummary;
  /** instantAnswer − retrieval at p50: prompt assembly, model round trip, two messages stored. */
  answerOverheadP50: Figure;
  answerOverRetrieval: Figure;
  /** Built-in extractive model, streamed: time to the first `event: answer` frame, and to the end. */
  localFirstAnswerEvent: LatencySummary;
  localWhole: LatencySummary;
  goals: Goal[];
}

const QUERIES = path.resolve(import.meta.dirname, '../eval/covid-qa/queries-dev.jsonl');

const readQuestions = (count: number): string[] =>
  fs
    .readFileSync(QUERIES, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(0, count)
    .map((line) => (JSON.parse(line) as { text: string }).text);

/** Streams one answer and returns when the first answer frame and the end arrived, in ms from the start. */
async function streamTimings(url: string, key: string, body: unknown): Promise<{ first: number; whole: number }> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  let first = Number.NaN;
  let seen = '';
  const decoder = new TextDecoder();
  for await (const chunk of response.body!) {
    seen += decoder.decode(chunk as Uint8Array, { stream: true });
    if (Number.isNaN(first) && seen.includes('event: answer')) first = performance.now() - started;
  }
  return { first, whole: performance.now() - started };
}

export async function runAgentQueryBench(
  { parley, datastoreId, chunks }: IngestedDatastore,
  options: { queries: number },
): Promise<AgentQueryResult> {
  const agent = expectOk('POST /agents', await parley.call('POST', '/agents', { name: 'bench', tools: [{ type: 'datastore', datastoreId }] }));
  const agentId = stringField(agent, 'id');
  const questions = readQuestions(options.queries);
  const retrieval: number[] = [];
  const instant: number[] = [];
  const first: number[] = [];
  const whole: number[] = [];
  // Warm-up: embedder threads, HNSW index, prepared statements.
  await parley.call('POST', `/agents/${agentId}/query`, { query: questions[0], modelName: INSTANT_MODEL });
  for (const query of questions) {
    retrieval.push((await timed(() => parley.call('POST', `/datastores/${datastoreId}/query`, { query, topK: 8 }))).millis);
    instant.push((await timed(() => parley.call('POST', `/agents/${agentId}/query`, { query, modelName: INSTANT_MODEL }))).millis);
    const streamed = await streamTimings(`${parley.url}/agents/${agentId}/query`, parley.key, { query, streaming: true });
    first.push(streamed.first);
    whole.push(streamed.whole);
  }
  const retrievalSummary = summarizeLatencies(retrieval);
  const instantSummary = summarizeLatencies(instant);
  const overhead = instantSummary.p50.value - retrievalSummary.p50.value;
  return {
    queries: figure(questions.length, 'count'),
    chunksInDatastore: figure(chunks, 'chunks'),
    retrieval: retrievalSummary,
    instantAnswer: instantSummary,
    answerOverheadP50: ms(overhead),
    answerOverRetrieval: ratio(instantSummary.p50.value, retrievalSummary.p50.value),
    localFirstAnswerEvent: summarizeLatencies(first),
    localWhole: summarizeLatencies(whole),
    goals: [goal('answer path over retrieval (prompt + model round trip + persistence) p50 ≤ 15 ms', overhead <= 15)],
  };
}
