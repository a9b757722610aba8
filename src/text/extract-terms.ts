import { isStopWord } from './stop-words.js';

/** One word or number of a text, reduced to the form that is compared. */
export interface Term {
  /** Lower-case, lightly stemmed word, or a number without thousands separators ("20,000" → "20000"). */
  key: string;
  isNumber: boolean;
  /** A capitalised word that does not start a sentence, or an acronym: likely a name. */
  isEntity: boolean;
  /** Stop words ("the", "how", …) are kept, flagged, for the neighbourhood checks. */
  isStopWord: boolean;
  /** Position in the text's term list. */
  position: number;
  /** UTF-16 offsets of the original token. */
  start: number;
  end: number;
}

// Letters, marks and digits, joined by inner apostrophes, periods or commas: "20,000", "3.5", "don't".
const TOKEN = /[\p{L}\p{M}\p{N}]+(?:['’.,][\p{L}\p{M}\p{N}]+)*/gu;
const INNER_PUNCTUATION = /[.,]/;
const APOSTROPHE = /['’]/;
// NFKC leaves printable ASCII as it is (tokens hold no spaces or control characters).
const ASCII = /^[ -~]*$/;
const NUMBER = /^\p{N}+(?:[.,]\p{N}+)*$/u;

/** The terms of `text`, in order. Deterministic and locale-independent. */
export function extractTerms(text: string): Term[] {
  const terms: Term[] = [];
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(text); match !== null; match = TOKEN.exec(text)) {
    const token = match[0];
    const start = match.index;
    if (NUMBER.test(token)) {
      terms.push(term(normalizeNumber(token), true, false, false, terms.length, start, start + token.length));
      continue;
    }
    // "e.g", "U.S" and "rock,paper" split into their parts; possessive "'s" goes. Most tokens are plain
    // words: the checks below skip the splitting, apostrophe and Unicode work they do not need.
    let offset = start;
    for (const part of INNER_PUNCTUATION.test(token) ? token.split(/[.,]/) : [token]) {
      const word = APOSTROPHE.test(part) ? part.replace(/['’]s$/u, '').replace(/['’]/gu, '') : part;
      if (word !== '') {
        const lower = (ASCII.test(word) ? word : word.normalize('NFKC')).toLowerCase();
        const entity = isEntity(word, text, offset);
        terms.push(term(stem(lower), false, entity, isStopWord(lower), terms.length, offset, offset + part.length));
      }
      offset += part.length + 1;
    }
  }
  return terms;
}

function term(key: string, isNumber: boolean, isEntity: boolean, isStopWord: boolean, position: number, start: number, end: number): Term {
  return { key, isNumber, isEntity, isStopWord, position, start, end };
}

/** "20,000" → "20000", "1.000.000" → "1000000"; a single decimal part stays ("3.5"). */
function normalizeNumber(token: string): string {
  const groups = token.split(/[.,]/);
  const thousands = groups.length > 1 && groups.slice(1).every((g) => g.length === 3);
  if (thousands && (groups.length > 2 || token.includes(','))) return groups.join('');
  return token.replace(',', '.');
}

function isEntity(word: string, text: string, offset: number): boolean {
  if (word.length >= 2 && word === word.toUpperCase() && word !== word.toLowerCase()) return true; // acronym
  const first = word.charAt(0);
  if (first === first.toLowerCase()) return false;
  // A capital after a sentence end (or at the very start) says nothing about names. Looks back from the
  // word rather than slicing the text before it, which made long texts quadratic.
  let before = offset - 1;
  while (before >= 0 && /\s/u.test(text.charAt(before)) && text.charAt(before) !== '\n') before--;
  return before >= 0 && !SENTENCE_BREAK_BEFORE.has(text.charAt(before));
}

/** Characters after which a capital starts a sentence or a quote, so it is no sign of a name. */
const SENTENCE_BREAK_BEFORE = new Set(['.', '!', '?', ':', ';', '"', "'", '“', '‘', '(', '\n']);

/**
 * A light English stemmer: plurals, -ing, -ed, -ly, a final e or y, so "bottles" meets "bottle" and "used"
 * meets "use". Words that are not plain a–z are left alone.
 */
export function stem(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  let w = word;
  if (w.endsWith('ies') || w.endsWith('ied')) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = undouble(w.slice(0, -3));
  else if (w.length > 4 && w.endsWith('ed')) w = undouble(w.slice(0, -2));
  else if (w.length > 5 && w.endsWith('ly')) w = w.slice(0, -2);
  if (w.length > 3 && (w.endsWith('e') || w.endsWith('y'))) w = w.slice(0, -1);
  return w;
}

/** "runn" → "run", "stopp" → "stop"; "ll", "ss" and "zz" stay ("fill", "pass"). */
function undouble(w: string): string {
  const last = w.at(-1);
  return w.length > 3 && last === w.at(-2) && last !== undefined && !'lsz'.includes(last) ? w.slice(0, -1) : w;
}
