/**
 * The first answer after a start: `parley start` in a process of its own on a store with an agent and its
 * datastore, the clock started when the process reports ready; its first `POST /agents/{id}/query` (a model
 * on loopback that answers at once) beside the warm answers that follow in the same process. Started twice:
 * as configured by default (the embedding model loaded before ready) and with PARLEY_EMBEDDINGS_PRELOAD=0,
 * which is how every start was before the preload.
 */
import { callParley } from '../test/support/parley.js';
import { createScratchStore, type StoreKind } from '../test/support/stores.js';
import { startServeProcess } from '../test/support/worker-process.js';
import { INSTANT_MODEL } from './agent-query.js';
import { readQueries } from './covid-qa-fixture.js';
import { goal, ms, ratio, type Figure, type Goal } from './figures.js';
import { summarizeLatencies, timed, type LatencySummary } from './latency.js';
import { seedAgent, type SeededAgent } from './seeded-agent.js';

export interface FirstAnswerOptions {
  store: StoreKind;
  /** Articles in the agent's datastore. */
  articles: number;
  /** Warm answers timed after the first. */
  warmAnswers: number;
  /** Base URL of the model that answers at once. */
  instantModelUrl: string;
  log: (line: string) => void;
}

/** One start of `parley start` and the answers it gave. */
export interface StartFigures {
  /** From spawning the process to its "running" lines. */
  startToReady: Figure;
  firstAnswer: Figure;
  warmAnswers: LatencySummary;
  /** The first answer over the warm answers' p50, of the same process. */
  firstOverWarm: Figure;
}

export interface FirstAnswerResult {
  store: StoreKind;
  /** The default start: the embedding model loaded before the server reports ready. */
  preloaded: StartFigures;
  /** PARLEY_EMBEDDINGS_PRELOAD=0: the model loads on the first question. */
  onFirstUse: StartFigures;
  goals: Goal[];
}

async function startAndAsk(
  seeded: SeededAgent,
  env: Record<string, string>,
  preload: boolean,
  questions: readonly string[],
  warmAnswers: number,
): Promise<StartFigures> {
  const started = await timed(() => startServeProcess({ ...env, PARLEY_EMBEDDINGS_PRELOAD: preload ? '1' : '0' }, { withWorkers: true }));
  const serving = started.result;
  try {
    const ask = async (question: string) => {
      const { millis, result } = await timed(() =>
        callParley(serving.url, 'POST', `/agents/${seeded.agentId}/query`, { key: seeded.key, body: { query: question } }),
      );
      if (result.status !== 200) throw new Error(`POST /agents/{id}/query answered ${result.status}`);
      return millis;
    };
    const first = await ask(questions[0]!);
    const warm: number[] = [];
    for (let i = 1; i <= warmAnswers; i++) warm.push(await ask(questions[i % questions.length]!));
    const summary = summarizeLatencies(warm);
    return { startToReady: ms(started.millis), firstAnswer: ms(first), warmAnswers: summary, firstOverWarm: ratio(first, summary.p50.value) };
  } finally {
    await serving.stop();
  }
}

export async function runFirstAnswerBench(options: FirstAnswerOptions): Promise<FirstAnswerResult> {
  const scratch = await createScratchStore(options.store);
  try {
    options.log(`first answer ${options.store}: seeding ${options.articles} articles`);
    const models = JSON.stringify({ [INSTANT_MODEL]: { provider: 'openai-compatible', model: 'instant', baseURL: options.instantModelUrl } });
    const seeded = await seedAgent(options.store, scratch, options.articles, models);
    // Query vectors are not cached, so every answer embeds its question as a new one would.
    const env = { ...scratch.env, PARLEY_MODELS: models, PARLEY_QUERY_CACHE_SIZE: '0' };
    const questions = readQueries();
    options.log(`first answer ${options.store}: start with the model preloaded`);
    const preloaded = await startAndAsk(seeded, env, true, questions, options.warmAnswers);
    options.log(`first answer ${options.store}: start with the model loaded on first use`);
    const onFirstUse = await startAndAsk(seeded, env, false, questions, options.warmAnswers);
    return {
      store: options.store,
      preloaded,
      onFirstUse,
      goals: [goal(`first answer after a start ≤ 2× a warm answer of the same process (${options.store})`, preloaded.firstOverWarm.value <= 2)],
    };
  } finally {
    await scratch.drop();
  }
}
