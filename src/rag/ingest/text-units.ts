import { countTokens } from '../../text/count-tokens.js';
import { isQuestionLine } from '../../text/question-line.js';
import { sentenceSpans, type SentenceRules } from '../../text/split-sentences.js';

/**
 * The pieces the chunk packer places: paragraphs, cut on demand into sentences, words, runs of characters.
 * Each piece knows its estimated token count and what separates it from the piece before, so a chunk's text
 * is its pieces joined back.
 */

/** Consecutive sections read as one text: same heading path, same or next page. */
export interface Flow {
  headings: string[];
  /** The heading line chunks of this flow start with; empty for none. */
  prefix: string;
  /** Tokens of the prefix and the blank line after it. */
  prefixTokens: number;
}

/** Finest last; a unit is only ever cut into units of a finer kind. */
export type UnitKind = 'heading' | 'paragraph' | 'sentence' | 'word' | 'run';

/** A piece of text the packer places whole, or cuts into finer units when it cannot. */
export interface Unit {
  readonly kind: UnitKind;
  readonly text: string;
  /** Put before `text` unless the unit opens a chunk. */
  readonly sep: string;
  /** Estimated tokens of `sep + text`. */
  readonly tokens: number;
  readonly flow: Flow;
  readonly page: number | undefined;
  /** Whether the unit starts at a word boundary, so an overlap may start with it. */
  readonly wordStart: boolean;
  /** A paragraph that opens with a question line (an FAQ entry): it starts a chunk of its own, with no overlap. */
  readonly asksQuestion?: boolean;
  /** Finer units, computed once when first needed; empty when the unit cannot be cut. */
  children?: readonly Unit[];
}

export const PARAGRAPH_SEP = '\n\n';

export function splitParagraphs(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[^\S\n]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '');
}

/**
 * Where a paragraph may be cut, not sentences to read: every line break ends one, and so does "Dr.", since a
 * cut there is as safe (never inside a word). Reading rules (soft wraps joined, abbreviations kept) move chunk
 * boundaries and the retrieval evaluation with them: on COVID-QA from -0.001 to +0.005 per figure.
 */
const CUTTING: SentenceRules = { softWraps: false, abbreviations: false };

export function paragraphUnit(text: string, flow: Flow, page: number | undefined): Unit {
  const unit = sentencesOf(text, flow, page);
  return isQuestionLine(text.split('\n', 1)[0]!) ? { ...unit, asksQuestion: true } : unit;
}

function sentencesOf(text: string, flow: Flow, page: number | undefined): Unit {
  let previousEnd: number | undefined;
  const sentences = sentenceSpans(text, CUTTING).map(({ start, end }) => {
    const sep = previousEnd === undefined ? PARAGRAPH_SEP : text.slice(previousEnd, start);
    previousEnd = end;
    return makeUnit('sentence', sep, text.slice(start, end), flow, page, true);
  });
  if (sentences.length === 0) return makeUnit('paragraph', PARAGRAPH_SEP, text, flow, page, true);
  if (sentences.length === 1) return { ...sentences[0]!, kind: 'paragraph' };
  return {
    kind: 'paragraph',
    text,
    sep: PARAGRAPH_SEP,
    tokens: sumTokens(sentences),
    flow,
    page,
    wordStart: true,
    children: sentences,
  };
}

export function makeUnit(kind: UnitKind, sep: string, text: string, flow: Flow, page: number | undefined, wordStart: boolean): Unit {
  return { kind, text, sep, tokens: countTokens(sep + text), flow, page, wordStart };
}

/** The unit cut one level finer: sentences, words, word segments, characters; empty when it cannot be. */
export function refine(unit: Unit): readonly Unit[] {
  if (unit.children !== undefined) return unit.children;
  let children: Unit[] = [];
  if (unit.kind === 'paragraph' || unit.kind === 'sentence') children = words(unit);
  if (children.length < 2 && unit.kind !== 'heading') children = runs(unit);
  unit.children = children.length < 2 ? [] : children;
  return unit.children;
}

function words(unit: Unit): Unit[] {
  const result: Unit[] = [];
  let end = 0;
  for (const match of unit.text.matchAll(/\S+/g)) {
    const sep = result.length === 0 ? unit.sep : unit.text.slice(end, match.index);
    result.push(makeUnit('word', sep, match[0], unit.flow, unit.page, true));
    end = match.index + match[0].length;
  }
  return result;
}

/** Characters per run when a word too big for a chunk is cut: big enough to count accurately. */
const RUN = 16;
let wordSegmenter: Intl.Segmenter | undefined;

/** Scripts written without spaces between words: there a Unicode word boundary is where a word starts. */
const SPACELESS = String.raw`[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]`;
const STARTS_SPACELESS = new RegExp(`^${SPACELESS}`, 'u');
const ENDS_SPACELESS = new RegExp(`${SPACELESS}$`, 'u');

/**
 * A word too big for a chunk (or a sentence in a script without spaces), cut into runs of about 16 characters
 * at Unicode word boundaries (which also separate Chinese or Japanese words); failing that into runs of 16
 * characters, then single characters (a character keeps its combining marks, variation selectors and
 * emoji joiners), then code points: never inside a surrogate pair. A run counts as starting a word (so an
 * overlap may start there) only at a word boundary next to a script written without spaces: the boundaries
 * inside a URL are not word starts.
 */
function runs(unit: Unit): Unit[] {
  wordSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
  const bySegment = groupSegments(unit.text, wordSegmenter, RUN);
  if (bySegment.length > 1) {
    return runUnits(unit, bySegment, (text, previous) => STARTS_SPACELESS.test(text) || ENDS_SPACELESS.test(previous));
  }
  for (const size of [RUN, 1]) {
    const windows = characterWindows(unit.text, size);
    if (windows.length > 1) return runUnits(unit, windows, () => false);
  }
  return runUnits(unit, Array.from(unit.text), () => false);
}

/** Code points that belong to the character before them. */
const CONTINUES = /^(?:\p{M}|\u200d|\ufe0e|\ufe0f|[\u{1f3fb}-\u{1f3ff}]|[\u{e0020}-\u{e007f}])$/u;

/**
 * Windows of `size` characters. Intl.Segmenter's grapheme clusters would be exact but cost ~10 µs each,
 * which adds up over a long blob; this approximation keeps what the eye sees as one character together.
 */
function characterWindows(text: string, size: number): string[] {
  const windows: string[] = [];
  let window = '';
  let count = 0;
  let previous = '';
  for (const codePoint of text) {
    if (count >= size && previous !== '\u200d' && !CONTINUES.test(codePoint)) {
      windows.push(window);
      window = '';
      count = 0;
    }
    window += codePoint;
    count++;
    previous = codePoint;
  }
  if (window !== '') windows.push(window);
  return windows;
}

/**
 * Characters handed to the segmenter at once. V8's segment iterator takes time in proportion to the square of
 * the text's length (80,000 characters of punctuation took a second, 80,000 CJK characters five), so a long
 * text is segmented a window at a time: linear, and the same segments, since a word boundary depends on the
 * characters near it (in Thai or Japanese, found by dictionary, on the run of text around it: there one in a
 * few thousand boundaries moves by a character or two).
 */
const SEGMENT_WINDOW = 1_000;

function groupSegments(text: string, segmenter: Intl.Segmenter, size: number): string[] {
  const groups: string[] = [];
  let group = '';
  for (const segment of segmentsOf(text, segmenter)) {
    group += segment;
    if (group.length >= size) {
      groups.push(group);
      group = '';
    }
  }
  if (group !== '') groups.push(group);
  return groups;
}

/**
 * The segments of `text`, read a window at a time. A window's last segment may be cut by the window's end,
 * so it is read again at the start of the next window; a segment that fills a whole window is taken as it is.
 */
function* segmentsOf(text: string, segmenter: Intl.Segmenter): Generator<string> {
  let start = 0;
  while (start < text.length) {
    // Never between the two halves of a surrogate pair.
    const end = start + SEGMENT_WINDOW - (isHighSurrogate(text.charCodeAt(start + SEGMENT_WINDOW - 1)) ? 1 : 0);
    if (end >= text.length) {
      for (const { segment } of segmenter.segment(text.slice(start))) yield segment;
      return;
    }
    let next = start;
    for (const { segment, index } of segmenter.segment(text.slice(start, end))) {
      if (index > 0 && start + index + segment.length === end) break;
      yield segment;
      next = start + index + segment.length;
    }
    start = next;
  }
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

function runUnits(unit: Unit, texts: readonly string[], startsWord: (text: string, previous: string) => boolean): Unit[] {
  if (texts.length < 2) return [];
  return texts.map((text, index) =>
    index === 0
      ? makeUnit('run', unit.sep, text, unit.flow, unit.page, unit.wordStart)
      : makeUnit('run', '', text, unit.flow, unit.page, startsWord(text, texts[index - 1]!)),
  );
}

export function sumTokens(units: readonly Unit[]): number {
  let sum = 0;
  for (const unit of units) sum += unit.tokens;
  return sum;
}
