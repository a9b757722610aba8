import { NOT_FOUND_ANSWER } from '../llm/chat/compose-extractive-answer.js';
import type { RetrievedChunk } from '../rag/retrieve/retriever.js';
import type { AnswerSourceRecord } from '../store/store.js';

/** A source as a reader is shown it: the n-th is what the answer's `[n]` cites. */
export interface SourceLabel {
  name: string;
  url: string | null;
  pageNumber: number | null;
}

/** The labels of an answer's sources (as {@link answerSources} made them), in their order. */
export function sourceLabels(sources: readonly AnswerSourceRecord[]): SourceLabel[] {
  return sources.map((source) => ({
    name: source.datasourceName,
    url: source.sourceUrl,
    pageNumber: source.pageNumber,
  }));
}

/** An answer as far as its sources are concerned. */
export interface CitingAnswer {
  /** The answer's text, its citations renumbered (see AnswerCitations). */
  text: string;
  /** Prompt numbers of the passages it cites, in the order of its own numbers. */
  cited: readonly number[];
  /** Whether the model finished it, rather than failing or the caller going away. */
  complete: boolean;
}

/**
 * The passages an answer drew on, as its sources: those it cites, numbered as it cites them. A finished
 * answer that cites nothing drew on the best passage (a model that does not cite still read it first),
 * unless it says it found nothing; an unfinished one has only what it cited so far.
 *
 * `passages` are those the prompt numbered, in its order: prompt number n is `passages[n - 1]`.
 */
export function answerSources(passages: readonly RetrievedChunk[], answer: CitingAnswer): AnswerSourceRecord[] {
  if (answer.cited.length > 0) return answer.cited.map((number) => toSource(passages[number - 1]!));
  const top = passages[0];
  if (top === undefined || !answer.complete || answer.text.trim() === '' || saysNotFound(answer.text)) return [];
  return [toSource(top)];
}

/** Whether the answer opens with the sentence the built-in model, and the prompt's instruction, use for "nothing found". */
function saysNotFound(text: string): boolean {
  return text.trim().startsWith(NOT_FOUND_ANSWER);
}

function toSource(chunk: RetrievedChunk): AnswerSourceRecord {
  return {
    chunkId: chunk.chunkId,
    datasourceId: chunk.datasourceId,
    datasourceName: chunk.datasourceName,
    datasourceType: chunk.datasourceType,
    sourceUrl: chunk.sourceUrl,
    customId: chunk.customId,
    mimeType: chunk.mimeType,
    pageNumber: chunk.pageNumber,
    totalPages: chunk.totalPages,
    score: chunk.score,
    text: chunk.text,
  };
}
