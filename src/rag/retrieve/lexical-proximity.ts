import { extractTerms } from '../../text/extract-terms.js';

/** Content words in order, with their adjacent pairs: what proximity compares. */
export interface TermProfile {
  terms: ReadonlySet<string>;
  pairs: ReadonlySet<string>;
}

/** A passage's profile, whole and sentence by sentence. */
export interface PassageProfile extends TermProfile {
  sentences: readonly TermProfile[];
}

/** A sentence ends at . ! or ? before a capital, digit or bracket, or at a line break. */
const SENTENCE_END = /(?<=[.!?])\s+(?=[\p{Lu}\p{N}([])|\n+/gu;

function profileOf(terms: readonly string[]): TermProfile {
  return { terms: new Set(terms), pairs: new Set(terms.slice(1).map((term, i) => `${terms[i]} ${term}`)) };
}

const contentTerms = (text: string) => extractTerms(text).filter((term) => !term.isStopWord);

export function termProfile(text: string): TermProfile {
  return profileOf(contentTerms(text).map((term) => term.key));
}

/** Tokenised once: the sentences' terms are the passage's, split where each sentence starts. */
export function passageProfile(text: string): PassageProfile {
  const terms = contentTerms(text);
  const starts = [...text.matchAll(SENTENCE_END)].map((end) => end.index + end[0].length);
  const sentences: TermProfile[] = [];
  let first = 0;
  for (const start of [...starts, Infinity]) {
    let next = first;
    while (next < terms.length && terms[next]!.start < start) next++;
    if (next > first) sentences.push(profileOf(terms.slice(first, next).map((term) => term.key)));
    first = next;
  }
  return { ...profileOf(terms.map((term) => term.key)), sentences };
}

/**
 * How closely a passage echoes the query's wording: the share of the query's content words it contains
 * plus the share of the query's adjacent word pairs it contains in the same order, in [0, 2]. Questions
 * are often phrased with the words of their answer, and word pairs catch that where a bag of words cannot.
 */
export function lexicalProximity(query: TermProfile, passage: TermProfile): number {
  if (query.terms.size === 0) return 0;
  const coverage = sharedCount(query.terms, passage.terms) / query.terms.size;
  if (query.pairs.size === 0) return coverage;
  return coverage + sharedCount(query.pairs, passage.pairs) / query.pairs.size;
}

/** How many of `wanted` are in `found`: scoring runs per candidate and sentence, so without allocating. */
function sharedCount(wanted: ReadonlySet<string>, found: ReadonlySet<string>): number {
  let count = 0;
  for (const item of wanted) if (found.has(item)) count += 1;
  return count;
}

/**
 * Weight of each query term among `passages` (BM25's IDF over them): a word every candidate has tells
 * them apart no better than a stop word. Counted over the candidates, not the datastore, so it needs no
 * index of its own and adapts to whatever the engines proposed.
 */
export function termWeights(query: TermProfile, passages: readonly TermProfile[]): Map<string, number> {
  const n = passages.length;
  return new Map(
    [...query.terms].map((term) => {
      const df = passages.reduce((count, passage) => count + (passage.terms.has(term) ? 1 : 0), 0);
      return [term, Math.log(1 + (n - df + 0.5) / (df + 0.5))];
    }),
  );
}

/** Word pairs count half as much as the words themselves: they confirm a match more than they make one. */
const PAIR_SHARE = 0.5;

/**
 * How well the passage's best sentence matches the query, in [0, 1]: the weighted share of the query's
 * words in that sentence, plus half the share of its word pairs, scaled. Questions are usually written
 * from one sentence of the answer, so words gathered in one sentence say more than words spread over
 * the passage.
 */
export function sentenceMatch(query: TermProfile, passage: PassageProfile, weights: ReadonlyMap<string, number>): number {
  let total = 0;
  for (const term of query.terms) total += weights.get(term) ?? 0;
  if (total === 0) return 0;
  let best = 0;
  for (const sentence of passage.sentences) {
    let score = 0;
    for (const term of query.terms) if (sentence.terms.has(term)) score += weights.get(term) ?? 0;
    score /= total;
    if (query.pairs.size > 0) score += (PAIR_SHARE * sharedCount(query.pairs, sentence.pairs)) / query.pairs.size;
    if (score > best) best = score;
  }
  return best / (1 + PAIR_SHARE);
}
