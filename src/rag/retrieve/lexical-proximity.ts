import { bm25Idf } from '../../text/bm25-idf.js';
import { extractTerms } from '../../text/extract-terms.js';
import { sentenceSpans } from '../../text/split-sentences.js';

/**
 * Content words in order, with their adjacent pairs: what proximity compares. Each is a 32-bit hash in
 * a sorted array: a profile is cached per chunk, and for a 400-token chunk arrays of hashes take ~6 KB
 * where sets of strings took ~32 KB (measured). Two words sharing a hash is a one-in-billions chance
 * and would only nudge a score.
 */
export interface TermProfile {
  terms: Int32Array;
  pairs: Int32Array;
}

/** A passage's profile, whole and sentence by sentence. */
export interface PassageProfile extends TermProfile {
  sentences: readonly TermProfile[];
}

/** FNV-1a over the UTF-16 code units. */
function hashTerm(term: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) hash = Math.imul(hash ^ term.charCodeAt(i), 0x01000193);
  return hash | 0;
}

/** An ordered pair of term hashes, mixed (murmur3's finaliser) so that (a, b) and (b, a) differ. */
function hashPair(first: number, second: number): number {
  let hash = Math.imul(first, 0x9e3779b1) ^ second;
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) | 0;
}

function sortedUnique(values: Int32Array): Int32Array {
  values.sort();
  let kept = 0;
  for (let i = 0; i < values.length; i++) if (i === 0 || values[i] !== values[kept - 1]) values[kept++] = values[i]!;
  return values.slice(0, kept);
}

function profileOf(hashes: Int32Array): TermProfile {
  const pairs = new Int32Array(Math.max(0, hashes.length - 1));
  for (let i = 1; i < hashes.length; i++) pairs[i - 1] = hashPair(hashes[i - 1]!, hashes[i]!);
  return { terms: sortedUnique(hashes.slice()), pairs: sortedUnique(pairs) };
}

function has(sorted: Int32Array, value: number): boolean {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = sorted[middle]!;
    if (found === value) return true;
    if (found < value) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

const contentTerms = (text: string) => extractTerms(text).filter((term) => !term.isStopWord);

export function termProfile(text: string): TermProfile {
  return profileOf(Int32Array.from(contentTerms(text), (term) => hashTerm(term.key)));
}

/** Tokenised once: the sentences' terms are the passage's, split where each sentence starts. */
export function passageProfile(text: string): PassageProfile {
  const terms = contentTerms(text);
  const hashes = Int32Array.from(terms, (term) => hashTerm(term.key));
  const starts = sentenceSpans(text).map((span) => span.start);
  const sentences: TermProfile[] = [];
  let first = 0;
  for (const start of [...starts, Infinity]) {
    let next = first;
    while (next < terms.length && terms[next]!.start < start) next++;
    if (next > first) sentences.push(profileOf(hashes.subarray(first, next)));
    first = next;
  }
  return { ...profileOf(hashes), sentences };
}

/**
 * How closely a passage echoes the query's wording: the share of the query's content words it contains
 * plus the share of the query's adjacent word pairs it contains in the same order, in [0, 2]. Questions
 * are often phrased with the words of their answer, and word pairs catch that where a bag of words cannot.
 */
export function lexicalProximity(query: TermProfile, passage: TermProfile): number {
  if (query.terms.length === 0) return 0;
  const coverage = sharedCount(query.terms, passage.terms) / query.terms.length;
  if (query.pairs.length === 0) return coverage;
  return coverage + sharedCount(query.pairs, passage.pairs) / query.pairs.length;
}

/** How many of `wanted` are in `found`: scoring runs per candidate and sentence, so without allocating. */
function sharedCount(wanted: Int32Array, found: Int32Array): number {
  let count = 0;
  for (const item of wanted) if (has(found, item)) count += 1;
  return count;
}

/**
 * Weight of each query term among `passages` (BM25's IDF over them): a word every candidate has tells
 * them apart no better than a stop word. Counted over the candidates, not the datastore, so it needs no
 * index of its own and adapts to whatever the engines proposed.
 */
export function termWeights(query: TermProfile, passages: readonly TermProfile[]): Map<number, number> {
  const n = passages.length;
  return new Map(
    Array.from(query.terms, (term) => {
      const df = passages.reduce((count, passage) => count + (has(passage.terms, term) ? 1 : 0), 0);
      return [term, bm25Idf(n, df)];
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
export function sentenceMatch(query: TermProfile, passage: PassageProfile, weights: ReadonlyMap<number, number>): number {
  let total = 0;
  for (const term of query.terms) total += weights.get(term) ?? 0;
  if (total === 0) return 0;
  let best = 0;
  for (const sentence of passage.sentences) {
    let score = 0;
    for (const term of query.terms) if (has(sentence.terms, term)) score += weights.get(term) ?? 0;
    score /= total;
    if (query.pairs.length > 0) score += (PAIR_SHARE * sharedCount(query.pairs, sentence.pairs)) / query.pairs.length;
    if (score > best) best = score;
  }
  return best / (1 + PAIR_SHARE);
}
