import { LRUCache } from 'lru-cache';
import type { Embedder } from '../../llm/embeddings/embedder.js';
import { extractTerms } from '../../text/extract-terms.js';

/**
 * When a visitor's question is the stored question asked again: both measures must agree.
 * - `overlap`: the share of content words (stemmed, stop words left out) the two questions have in common,
 *   on the side where it is smaller: a question that adds a word of its own ("…express shipping to Canada
 *   cost?" against "Do you ship to Canada?") asks something else;
 * - `similarity`: cosine similarity of their embeddings.
 * Measured with the built-in embedder on test/fixtures/qa/paraphrases.json (12 stored questions, 39 wordings
 * meaning the same, 40 questions that must not match, half of them on the same topic: "remove a member"
 * against "add a team member"): 25 of the 39 paraphrases match, none of the 40 others; the nearest misses
 * have overlap 0.5. Embedding similarity alone cannot tell them apart (same-topic questions reach 0.93,
 * paraphrases go down to 0.45), nor can the Dice coefficient of the words. A miss costs little: the entry is
 * still a passage the answer may draw on, and other wordings given with the entry match as its question
 * does; a false match would answer another question.
 */
export const QA_MATCH = { overlap: 0.6, similarity: 0.55 } as const;

/** How closely a visitor's question matches a stored wording. */
export interface QaMatchScore {
  overlap: number;
  similarity: number;
}

export const isQaMatch = (score: QaMatchScore): boolean => score.overlap >= QA_MATCH.overlap && score.similarity >= QA_MATCH.similarity;

const contentWords = (text: string): Set<string> => new Set(extractTerms(text).flatMap((term) => (term.isStopWord ? [] : [term.key])));

/** The share of content words the two texts have in common, on the side with more words of its own: 1 for the same words, 0 for none shared. */
export function wordOverlap(first: string, second: string): number {
  const a = contentWords(first);
  const b = contentWords(second);
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared / Math.max(a.size, b.size);
}

const cosine = (a: Float32Array, b: Float32Array): number => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
};

/** Stored wordings' vectors kept (~2 KB each at 512-d): the same entries are compared again and again. */
const WORDING_CACHE_SIZE = 5_000;

/** Scores a visitor's question against stored questions. */
export class QaMatcher {
  readonly #vectors = new LRUCache<string, Float32Array>({ max: WORDING_CACHE_SIZE });

  constructor(private readonly embedder: () => Promise<Embedder>) {}

  /**
   * The best score of `question` against `wordings`. Only wordings sharing enough words are embedded:
   * word overlap is the cheaper test and must pass anyway.
   */
  async best(question: string, wordings: readonly string[], signal?: AbortSignal): Promise<QaMatchScore | undefined> {
    const candidates = wordings
      .map((wording) => ({ wording, overlap: wordOverlap(question, wording) }))
      .filter((candidate) => candidate.overlap >= QA_MATCH.overlap);
    if (candidates.length === 0) return undefined;
    const embedder = await this.embedder();
    const asked = await this.vectorOf(embedder, question, signal);
    let best: QaMatchScore | undefined;
    for (const { wording, overlap } of candidates) {
      const similarity = cosine(asked, await this.vectorOf(embedder, wording, signal));
      const score = { overlap, similarity };
      if (isQaMatch(score) && (best === undefined || overlap + similarity > best.overlap + best.similarity)) best = score;
    }
    return best;
  }

  private async vectorOf(embedder: Embedder, text: string, signal: AbortSignal | undefined): Promise<Float32Array> {
    const key = `${embedder.modelId}\n${text}`;
    const cached = this.#vectors.get(key);
    if (cached !== undefined) return cached;
    const vector = await embedder.embedQuery(text, signal);
    this.#vectors.set(key, vector);
    return vector;
  }
}
