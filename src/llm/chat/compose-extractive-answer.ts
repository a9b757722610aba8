import type { LabelledPassage } from '../prompt/context-block.js';
import { bm25Idf } from '../../text/bm25-idf.js';
import type { Term } from '../../text/extract-terms.js';
import { extractTerms } from '../../text/extract-terms.js';
import { answerUnits, type AnswerUnit } from './answer-units.js';

export const NOT_FOUND_ANSWER = 'I could not find this in the knowledge base.';

export interface ExtractiveAnswerOptions {
  /**
   * Weighted share of the question's terms the best unit (with its heading and neighbours) must contain
   * (0..1) to be an answer; a unit holding two or more of them needs only 60% of this. Default 0.5.
   */
  minRelevance?: number;
  /** Sentences (list items, table rows) quoted at most. Default 3. */
  maxSentences?: number;
}

export interface ExtractiveAnswer {
  /**
   * Quoted sentences, each passage's run of them followed by its `[n]`, or {@link NOT_FOUND_ANSWER}, which
   * cites nothing. No list of sources: `cited` is that list, for the caller to show.
   */
  text: string;
  found: boolean;
  /** The passages cited, in order of first citation. */
  cited: LabelledPassage[];
}

interface ScoredUnit extends AnswerUnit {
  /** Question terms the unit, its heading or its neighbours hold, weighted, as a share of all (0..1). */
  coverage: number;
  /** Question terms the unit itself holds. */
  matched: number;
  /** Question terms the unit holds that its heading holds too: the section is about them. */
  confirmed: number;
  score: number;
}

type AnswerType = 'quantity' | 'date' | null;

const QUANTITY_QUESTION =
  /\b(how (many|much|long|far|old|often|large|big|tall|high|heavy|fast|soon)|what (number|amount|percentage|percent|quantity|total|price|cost|size))\b/i;
const DATE_QUESTION = /\b(when|(what|which) (year|date|day|month|time))\b/i;
const MONTH = /^(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)/;
const ENTITY_WEIGHT = 1.5;
const NEAR = 3;
const LONG_SENTENCE_TERMS = 100;
const WINDOW_TERMS = 80;
/** What a term found only in a unit's heading, or only in the unit next to it, counts for. */
const HEADING_SHARE = 0.6;
const NEIGHBOUR_SHARE = 0.3;
/**
 * How much a passage's place in the prompt (search's ranking, best first) weighs: the unit's score is
 * divided by `1 + RANK_DECAY × rank`, so the first passage's sentence wins over an equally worded one of
 * the fifth (0.5×), and a much better worded one of the fifth still wins.
 */
const RANK_DECAY = 0.25;
/** A unit of another passage or section scoring at least this share of the best one's is quoted after it. */
const RUNNER_UP_SHARE = 0.5;
/** A sentence opening like this leans on the one before it, which is quoted with it. */
const LEANS_BACK = /^(this|these|that|those|it|its|they|their|such|however|but|also|thus|therefore|then|here|there|he|she|both|yes|no)\b/i;

/**
 * An answer quoted from `passages` (best first, as search ranked them): the unit (sentence, list item or
 * table row) that best answers `question`, with what belongs to it, verbatim up to whitespace, each
 * passage's run of quotes followed by its `[n]`. Deterministic: the same input always gives the same text.
 * Never adds a word of its own beyond the citations and the not-found sentence, and never quotes a heading.
 *
 * Relevance of a unit: the IDF-weighted share of the question's content terms found in it (IDF over all
 * units of all passages, so words found everywhere count little; names and numbers count 1.5×; an acronym
 * of the question also matches the words it stands for, "UK" the "United Kingdom"), with the terms of its
 * heading counting 0.6 and those of the units beside it 0.3, so an FAQ's matching question points at the
 * answer beneath it. Ranking adds bonuses for a number (or date) when the question asks how many (or
 * when), and for question terms side by side as in the question, then divides by the passage's rank
 * weight.
 *
 * What is quoted: the best unit; under a question heading, the answer beneath it from its start (an FAQ
 * answer opens with what it says); the sentence before it when it leans on it ("This …"); the list after
 * a lead-in ending with ":"; and the sentence after it while under `maxSentences` when that one holds
 * question terms or a number asked for. Unless the best unit answers an FAQ question, the next best units
 * follow while they score at least half as well (up to `maxSentences` units in all, none repeated): the
 * answer is often in a unit ranked just below the best. Each passage quoted is cited, and only those.
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
  const units = answerUnits(passages);
  if (content.size === 0 || units.length === 0) return notFound;

  const acronyms = acronymsOf(questionTerms, question);
  const has = (unit: { terms: Term[]; keys: Set<string> }, key: string) => unit.keys.has(key) || spells(unit.terms, acronyms.get(key));
  const weights = termWeights(content, units, has);
  const total = [...weights.values()].reduce((sum, w) => sum + w, 0);
  const answerType = answerTypeOf(question);
  const questionNumbers = new Set(questionTerms.filter((t) => t.isNumber).map((t) => t.key));
  const pairs = adjacentPairs(questionTerms);

  const scored: ScoredUnit[] = units.map((unit, position) => {
    const neighbours = [units[position - 1], units[position + 1]].filter(
      (other): other is AnswerUnit => other !== undefined && other.passage === unit.passage && other.section === unit.section,
    );
    const headingUnit = { terms: unit.heading, keys: new Set(unit.heading.map((t) => t.key)) };
    let own = 0;
    let context = 0;
    let matched = 0;
    const matchedKeys = new Set<string>();
    for (const [key, weight] of weights) {
      if (has(unit, key)) {
        own += weight;
        matched += 1;
        matchedKeys.add(key);
      } else if (has(headingUnit, key)) context += HEADING_SHARE * weight;
      else if (neighbours.some((other) => has(other, key))) context += NEIGHBOUR_SHARE * weight;
    }
    const coverage = (own + context) / total;
    const confirmed = [...matchedKeys].filter((key) => has(headingUnit, key)).length;
    let score = 0;
    if (own > 0 || (unit.answersHeading && context > 0)) {
      const contentCount = unit.terms.filter((t) => !t.isStopWord).length;
      // Labels and fragments match well and answer little.
      score = coverage * (contentCount < 4 ? 0.8 : 1);
      score += answerBonus(answerType, unit.terms, matchedKeys, questionNumbers);
      score += Math.min(0.15, 0.05 * countPairs(unit.terms, pairs));
      score /= 1 + RANK_DECAY * unit.passageRank;
    }
    return { ...unit, coverage, matched, confirmed, score };
  });
  const ranked = [...scored].sort((a, b) => b.score - a.score || a.passageRank - b.passageRank || a.index - b.index);

  const best = ranked[0];
  // Two question terms, or one that the unit's heading names too, make a weaker match an answer.
  const relevant = (s: ScoredUnit) => s.coverage >= minRelevance || ((s.matched >= 2 || s.confirmed >= 1) && s.coverage >= 0.6 * minRelevance);
  if (!best || best.score === 0 || !relevant(best)) return notFound;

  const useful = (unit: ScoredUnit) =>
    unit.matched > 0 || (answerType !== null && answerBonus(answerType, unit.terms, new Set(), questionNumbers) > 0);
  const quoted = quotedUnits(best, scored, maxSentences, useful);
  // An FAQ answer says all its question asks; elsewhere the answer may lie in another unit scored nearly as well.
  if (!best.answersHeading) quoted.push(...runnersUp(ranked, quoted, best.score * RUNNER_UP_SHARE, maxSentences, relevant));
  const groups = new Map<LabelledPassage, ScoredUnit[]>();
  for (const unit of quoted) groups.set(unit.passage, [...(groups.get(unit.passage) ?? []), unit]);
  const text = [...groups]
    .map(
      ([passage, units]) =>
        `${units
          .sort((a, b) => a.index - b.index)
          .map((unit) => quote(unit, weights))
          .join(' ')} [${passage.number}]`,
    )
    .join(' ');
  return { text, found: true, cited: [...groups.keys()] };
}

/**
 * The best-scored units after `quoted`, up to `max` units in all, while they score at least `floor` and are
 * relevant, skipping what repeats a quoted unit (overlapping chunks share sentences).
 */
function runnersUp(
  ranked: readonly ScoredUnit[],
  quoted: readonly ScoredUnit[],
  floor: number,
  max: number,
  relevant: (unit: ScoredUnit) => boolean,
): ScoredUnit[] {
  const texts = quoted.map((unit) => squash(unit.text));
  const added: ScoredUnit[] = [];
  for (const unit of ranked) {
    if (quoted.length + added.length >= max || unit.score < floor) break;
    const text = squash(unit.text);
    if (quoted.includes(unit) || !relevant(unit) || texts.some((other) => other.includes(text) || text.includes(other))) continue;
    texts.push(text);
    added.push(unit);
  }
  return added;
}

/**
 * What is quoted around the best unit, in passage order: see {@link composeExtractiveAnswer}. `useful` says
 * whether a following sentence adds to the answer.
 */
function quotedUnits(best: ScoredUnit, all: readonly ScoredUnit[], max: number, useful: (unit: ScoredUnit) => boolean): ScoredUnit[] {
  const section = all.filter((unit) => unit.passage === best.passage && unit.section === best.section);
  const at = section.indexOf(best);
  let first = at;
  if (best.answersHeading && at < max) first = 0;
  else if (at > 0 && (LEANS_BACK.test(best.text) || section[at - 1]!.text.trimEnd().endsWith(':'))) first = at - 1;
  let last = at;
  const leadIn = (unit: ScoredUnit) => unit.text.trimEnd().endsWith(':');
  // A lead-in brings its list; a list item its neighbours in the list only when it is the lead-in's.
  if (leadIn(best)) {
    while (last + 1 < section.length && section[last + 1]!.kind === 'item' && last - first + 1 < max + 2) last += 1;
  }
  while (last + 1 < section.length && last - first + 1 < max) {
    const next = section[last + 1]!;
    const belongs = best.answersHeading ? first === 0 : LEANS_BACK.test(next.text) || useful(next);
    if (!belongs) break;
    last += 1;
  }
  return section.slice(first, last + 1);
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

/** The question's acronyms ("UK", "EU"), by key, as the initials they stand for ("uk"). */
function acronymsOf(terms: readonly Term[], question: string): Map<string, string> {
  const acronyms = new Map<string, string>();
  for (const term of terms) {
    const word = question.slice(term.start, term.end);
    if (/^\p{Lu}{2,6}$/u.test(word)) acronyms.set(term.key, word.toLowerCase());
  }
  return acronyms;
}

/** The terms hold capitalised words in a row whose initials spell `initials` ("United Kingdom": "uk"). */
function spells(terms: readonly Term[], initials: string | undefined): boolean {
  if (initials === undefined) return false;
  const words = terms.filter((t) => !t.isStopWord);
  for (let i = 0; i + initials.length <= words.length; i++) {
    let j = 0;
    while (j < initials.length && words[i + j]!.isEntity && words[i + j]!.key.startsWith(initials[j]!)) j++;
    if (j === initials.length) return true;
  }
  return false;
}

/** BM25's IDF over units, times 1.5 for names and numbers. */
function termWeights(
  content: Map<string, boolean>,
  units: readonly AnswerUnit[],
  has: (unit: AnswerUnit, key: string) => boolean,
): Map<string, number> {
  const n = units.length;
  const weights = new Map<string, number>();
  for (const [key, special] of content) {
    const df = units.filter((unit) => has(unit, key)).length;
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
    type === 'quantity' ? t.isNumber && !questionNumbers.has(t.key) : (t.isNumber && /^[12]\d{3}$/.test(t.key)) || MONTH.test(t.key);
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

/** The unit with whitespace collapsed; a very long one cut to its densest window, marked with "…". */
function quote(unit: AnswerUnit, weights: Map<string, number>): string {
  const { terms, text } = unit;
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
