/**
 * Retrieval metrics for one query's hits, and their aggregation over a query set. Pure functions: the
 * runner feeds them what the HTTP API returned.
 */

/** What the metrics need of a hit: which document it comes from, and its text. */
export interface ScoredHit {
  customId: string | null;
  text: string;
}

/** All whitespace runs (line breaks included) as one space, trimmed. */
export const normalizeWhitespace = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The documents of `hits` in the order they first appear; hits without a document id are skipped. */
export function distinctDocuments(hits: readonly ScoredHit[]): string[] {
  const seen = new Set<string>();
  for (const hit of hits) if (hit.customId !== null) seen.add(hit.customId);
  return [...seen];
}

/**
 * Share of the relevant documents among the distinct documents of the first `k` hits (BEIR's recall@k).
 * With one relevant document per query, as in COVID-QA, it is 1 or 0.
 */
export function documentRecall(hits: readonly ScoredHit[], relevant: ReadonlySet<string>, k: number): number {
  if (relevant.size === 0) return 0;
  const found = distinctDocuments(hits.slice(0, k)).filter((id) => relevant.has(id));
  return found.length / relevant.size;
}

/**
 * 1-based rank of the first relevant document within the first `k` hits, or null. `over: 'hits'` counts
 * every hit (three chunks of one wrong article push the right one to rank 4); `over: 'documents'` counts
 * distinct documents in order of first appearance (the same case gives rank 2).
 */
export function firstRelevantRank(hits: readonly ScoredHit[], relevant: ReadonlySet<string>, k: number, over: 'hits' | 'documents'): number | null {
  const top = hits.slice(0, k);
  const ids = over === 'hits' ? top.map((hit) => hit.customId) : distinctDocuments(top);
  const index = ids.findIndex((id) => id !== null && relevant.has(id));
  return index === -1 ? null : index + 1;
}

export const reciprocalRank = (rank: number | null): number => (rank === null ? 0 : 1 / rank);

export interface PreparedAnswers {
  exact: string[];
  lower: string[];
}

/** Answer strings normalised once per query; blank answers are dropped. */
export function prepareAnswers(answers: readonly string[]): PreparedAnswers {
  const exact = [...new Set(answers.map(normalizeWhitespace).filter((answer) => answer !== ''))];
  return { exact, lower: exact.map((answer) => answer.toLowerCase()) };
}

/**
 * 1-based rank of the first of the first `k` hits whose whitespace-normalised text contains one of the
 * answers, or null; `caseSensitive` false compares both in lower case.
 */
export function firstAnswerRank(hits: readonly ScoredHit[], answers: PreparedAnswers, k: number, caseSensitive: boolean): number | null {
  const needles = caseSensitive ? answers.exact : answers.lower;
  if (needles.length === 0) return null;
  const index = hits.slice(0, k).findIndex((hit) => {
    const text = normalizeWhitespace(hit.text);
    const haystack = caseSensitive ? text : text.toLowerCase();
    return needles.some((needle) => haystack.includes(needle));
  });
  return index === -1 ? null : index + 1;
}

/** Nearest-rank percentile (p in 0..100) of a non-empty list; NaN for an empty one. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

export const mean = (values: readonly number[]): number =>
  values.length === 0 ? Number.NaN : values.reduce((total, value) => total + value, 0) / values.length;
