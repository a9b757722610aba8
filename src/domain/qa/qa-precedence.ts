import type { RetrievedChunk } from '../../rag/retrieve/retriever.js';
import type { Store } from '../../store/store.js';
import { qaEntryOf, wordingsOf } from './qa-entry.js';
import type { QaMatcher, QaMatchScore } from './qa-match.js';

/** A Q&A entry whose question the visitor asked: its answer is the agent's, citing `chunk` alone. */
export interface StoredAnswer {
  answer: string;
  chunk: RetrievedChunk;
  score: QaMatchScore;
}

/**
 * The stored answer to a question, when one of the Q&A entries among the retrieved passages asks it
 * (see {@link QaMatcher}); the closest entry wins. Undefined otherwise: the passages are answered from as usual.
 */
export async function storedAnswerTo(
  store: Store,
  matcher: QaMatcher,
  workspaceId: string,
  question: string,
  passages: readonly RetrievedChunk[],
  signal?: AbortSignal,
): Promise<StoredAnswer | undefined> {
  const firstOfEach = new Map<string, RetrievedChunk>();
  for (const chunk of passages) if (chunk.datasourceType === 'qa' && !firstOfEach.has(chunk.datasourceId)) firstOfEach.set(chunk.datasourceId, chunk);
  let best: StoredAnswer | undefined;
  for (const chunk of firstOfEach.values()) {
    const datasource = await store.datasources.find(workspaceId, chunk.datasourceId);
    const entry = datasource === undefined ? undefined : qaEntryOf(datasource.config);
    if (entry === undefined) continue;
    const score = await matcher.best(question, wordingsOf(entry), signal);
    if (score !== undefined && (best === undefined || score.overlap + score.similarity > best.score.overlap + best.score.similarity)) {
      best = { answer: entry.answer, chunk, score };
    }
  }
  return best;
}
