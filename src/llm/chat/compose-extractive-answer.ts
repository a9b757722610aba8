import type { LabelledPassage } from '../prompt/context-block.js';
import { bm25Idf } from '../../text/bm25-idf.js';
import type { Term } from '../../text/extract-terms.js';
import { extractTerms } from '../../text/extract-terms.js';
import { splitSentences } from '../../text/split-sentences.js';

export const NOT_FOUND_ANSWER = 'I could not find this in the knowledge base.';

export interface ExtractiveAnswerOptions {
  /**
   * Weighted share of the question's terms the best sentence must contain (0..1) to be an answer; a sentence
   * holding two or more of them needs only 60% of this. Default 0.5.
   */
  minRelevance?: number;
  /** Sentences quoted at most. Default 3. */
  maxSentences?: number;
}

export interface ExtractiveAnswer {
  /** Quoted sentences with their `[n]` marks and a "Sources:" line, or {@link NOT_FOUND_ANSWER}. */
  text: string;
  found: boolean;
  /** The passages cited, in order of first citation. */
  cited: LabelledPassage[];
}

interface ScoredSentence {
  passage: LabelledPassage;
  passageRank: number;
  index: number;
  text: string;
  terms: Term[];
  keys: Set<string>;
  coverage: number;
  matched: number;
  score: number;
}

type AnswerType = 'quantity' | 'date' | null;

const QUANTITY_QUESTION =
  /\b(how (many|much|long|far|old|often|large|big|tall|high|heavy|fast)|what (number|amount|percentage|percent|quantity|total|price|cost|size))\b/i;
const DATE_QUESTION = /\b(when|(what|which) (year|date|day|month|time))\b/i;
const MONTH = /^(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)/;
const ENTITY_WEIGHT = 1.5;
const NEAR = 3;
const LONG_SENTENCE_TERMS = 60;
const WINDOW_TERMS = 40;

/**
 * An answer quoted from `passages` (best first): the sentences most relevant to `question`, verbatim up to
 * whitespace, each followed by its passage's `[n]`, then the sources. Deterministic: the same input always
 * gives the same text. Never adds a word of its own beyond the citations and the not-found sentence.
 *
 * Relevance of a sentence: the IDF-weighted share of the question's content terms it contains (IDF over all
 * sentences of all passages, so words found everywhere count little and words found nowhere count most;
 * names and numbers of the question count 1.5×). Ranking adds bonuses: a number (or date) in a sentence
 * when the question asks how many / how much (or when), more when it stands within three words of a
 * question term ("20,000 bottles"); question terms appearing side by side as in the question.
 */
export function composeExtractiveAnswer(
  question: string,
  passages: readonly LabelledPassage[],
  options: ExtractiveAnswerOptions = {},
): ExtractiveAnswer {
  const minRelevance = options.minRelevance ?? 0.5;
  const maxSentences = options.maxSentences ?? 3;
  const notFound: ExtractiveAnswer = { text: NOT_FOUND_ANSWER, found: false, cited: [] };

  const questionTerms = extractTerms(question);
  const content = contentTerms(questionTerms);
  const sentences = passages.flatMap((passage, passageRank) =>
    splitSentences(passage.text).map((sentence, index) => {
      const terms = extractTerms(sentence.text);
      return { passage, passageRank, index, text: sentence.text, terms, keys: new Set(terms.map((t) => t.key)) };
    }),
  );
  if (content.size === 0 || sentences.length === 0) return notFound;

  const weights = termWeights(content, sentences);
  const total = [...weights.values()].reduce((sum, w) => sum + w, 0);
  const answerType = answerTypeOf(question);
  const questionNumbers = new Set(questionTerms.filter((t) => t.isNumber).map((t) => t.key));
  const pairs = adjacentPairs(questionTerms);

  const scored: ScoredSentence[] = sentences.map((sentence) => {
    const matchedKeys = [...weights.keys()].filter((key) => sentence.keys.has(key));
    const coverage = matchedKeys.reduce((sum, key) => sum + (weights.get(key) ?? 0), 0) / total;
    let score = 0;
    if (coverage > 0) {
      const contentCount = sentence.terms.filter((t) => !t.isStopWord).length;
      // Headings and labels match well and answer nothing.
      score = coverage * (contentCount < 4 ? 0.8 : 1);
      score += answerBonus(answerType, sentence.terms, new Set(matchedKeys), questionNumbers);
      score += Math.min(0.15, 0.05 * countPairs(sentence.terms, pairs));
    }
    return { ...sentence, coverage, matched: matchedKeys.length, score };
  });
  scored.sort((a, b) => b.score - a.score || a.passageRank - b.passageRank || a.index - b.index);

  const relevant = (s: ScoredSentence) => s.coverage >= minRelevance || (s.matched >= 2 && s.coverage >= 0.6 * minRelevance);
  const best = scored[0];
  if (!best || !relevant(best)) return notFound;

  const chosen: ScoredSentence[] = [];
  for (const candidate of scored) {
    if (chosen.length >= maxSentences || candidate.score < 0.6 * best.score) break;
    if (relevant(candidate) && !chosen.some((c) => nearDuplicate(c, candidate))) chosen.push(candidate);
  }

  const cited: LabelledPassage[] = [];
  const quotes = chosen.map((sentence) => {
    if (!cited.includes(sentence.passage)) cited.push(sentence.passage);
    return `${quote(sentence, weights)} [${sentence.passage.number}]`;
  });
  const sources = cited.map((p) => `[${p.number}] ${p.source}${p.pageNumber === null ? '' : `, page ${p.pageNumber}`}`);
  return { text: `${quotes.join(' ')}\n\nSources: ${sources.join('; ')}`, found: true, cited };
}

/** The question's content terms: not stop words; names and numbers flagged. */
function contentTerms(terms: readonly Term[]): Map<string, boolean> {
  const content = new Map<string, boolean>();
  for (const term of terms) {
    if (term.isStopWord) continue;
    content.set(term.key, (content.get(term.key) ?? false) || term.isEntity || term.isNumber);
  }
  return content;
}

/** BM25's IDF over sentences, times 1.5 for names and numbers. */
function termWeights(content: Map<string, boolean>, sentences: readonly { keys: Set<string> }[]): Map<string, number> {
  const n = sentences.length;
  const weights = new Map<string, number>();
  for (const [key, special] of content) {
    const df = sentences.filter((s) => s.keys.has(key)).length;
    weights.set(key, bm25Idf(n, df) * (special ? ENTITY_WEIGHT : 1));
  }
  return weights;
}

function answerTypeOf(question: string): AnswerType {
  if (QUANTITY_QUESTION.test(question)) return 'quantity';
  if (DATE_QUESTION.test(question)) return 'date';
  return null;
}

/** A number (or a date) the question asks for, more if it stands next to a question term. */
function answerBonus(type: AnswerType, terms: readonly Term[], matched: Set<string>, questionNumbers: Set<string>): number {
  if (type === null) return 0;
  const isAnswer = (t: Term) =>
    type === 'quantity'
      ? t.isNumber && !questionNumbers.has(t.key)
      : (t.isNumber && /^[12]\d{3}$/.test(t.key)) || MONTH.test(t.key);
  const answers = terms.filter(isAnswer);
  if (answers.length === 0) return 0;
  const anchors = terms.filter((t) => matched.has(t.key) && !t.isNumber);
  const near = answers.some((a) => anchors.some((m) => Math.abs(a.position - m.position) <= NEAR));
  return near ? 0.3 : 0.15;
}

/** Consecutive content terms of the question ("bottles of water" → bottl+water). */
function adjacentPairs(terms: readonly Term[]): Set<string> {
  const content = terms.filter((t) => !t.isStopWord);
  const pairs = new Set<string>();
  for (let i = 1; i < content.length; i++) pairs.add(`${content[i - 1]?.key} ${content[i]?.key}`);
  return pairs;
}

function countPairs(terms: readonly Term[], pairs: Set<string>): number {
  const content = terms.filter((t) => !t.isStopWord);
  let count = 0;
  for (let i = 1; i < content.length; i++) if (pairs.has(`${content[i - 1]?.key} ${content[i]?.key}`)) count++;
  return count;
}

/** Same sentence twice (overlapping chunks) or one containing the other. */
function nearDuplicate(a: ScoredSentence, b: ScoredSentence): boolean {
  const x = squash(a.text);
  const y = squash(b.text);
  if (x.includes(y) || y.includes(x)) return true;
  const shared = [...a.keys].filter((k) => b.keys.has(k)).length;
  return shared / (a.keys.size + b.keys.size - shared) >= 0.8;
}

/** The sentence with whitespace collapsed; a very long one cut to its densest window, marked with "…". */
function quote(sentence: ScoredSentence, weights: Map<string, number>): string {
  const { terms, text } = sentence;
  if (terms.length <= LONG_SENTENCE_TERMS) return squash(text);
  let bestStart = 0;
  let bestWeight = -1;
  for (let start = 0; start + WINDOW_TERMS <= terms.length; start++) {
    const weight = terms.slice(start, start + WINDOW_TERMS).reduce((sum, t) => sum + (weights.get(t.key) ?? 0), 0);
    if (weight > bestWeight) [bestStart, bestWeight] = [start, weight];
  }
  // The densest window is the first of equals: centre it on the question terms it holds.
  const hits = terms.slice(bestStart, bestStart + WINDOW_TERMS).filter((t) => weights.has(t.key));
  const lo = hits[0]?.position ?? bestStart;
  const hi = hits.at(-1)?.position ?? bestStart;
  bestStart = Math.max(0, Math.min(terms.length - WINDOW_TERMS, Math.round((lo + hi - WINDOW_TERMS) / 2)));
  const first = terms[bestStart];
  const last = terms[bestStart + WINDOW_TERMS - 1];
  if (!first || !last) return squash(text);
  const end = last === terms.at(-1) ? text.length : last.end;
  return `${bestStart > 0 ? '…' : ''}${squash(text.slice(first.start, end))}${end < text.length ? '…' : ''}`;
}

const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();
