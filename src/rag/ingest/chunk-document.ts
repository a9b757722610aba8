import { countTokens } from '../../text/count-tokens.js';
import type { DocumentSection, ParsedDocument } from './document.js';

export interface ChunkingOptions {
  /** No chunk's text, heading line included, has more cl100k tokens than this. At least 16. */
  maxTokens: number;
  /** About this many tokens of a chunk's tail open the next chunk of the same text. Under half of maxTokens. */
  overlapTokens: number;
}

/** ~15% overlap. */
export const DEFAULT_CHUNKING: ChunkingOptions = { maxTokens: 400, overlapTokens: 60 };

export interface TextChunk {
  /** 0-based position in the document. */
  ordinal: number;
  /** What gets embedded, shown and keyword-indexed; starts with the heading path when there is one. */
  text: string;
  /** The page, slide or sheet where the chunk starts. */
  pageNumber?: number;
  /** Heading path of the section the chunk starts in. */
  headings?: string[];
  /** cl100k tokens in `text`. */
  tokens: number;
}

/**
 * Cuts a document into chunks for retrieval, deterministically.
 *
 * - Whole paragraphs are packed greedily. A paragraph too big for a chunk is cut at sentence ends
 *   (`.` `!` `?` and `。` `！` `？` before the next sentence, or a line break), a sentence too big at spaces, and
 *   a "word" too big (a base64 blob, a URL, text in a script without spaces) at Unicode word boundaries, then
 *   between characters, never inside a surrogate pair.
 * - A chunk that continues the text of the previous one starts with about `overlapTokens` of its tail, taken
 *   at a sentence start where that gives at least half of it, otherwise at a word start; there is none when
 *   the previous chunk ends with a word bigger than that (a long URL).
 * - Sections: consecutive sections with the same heading path, on the same or the next page (or both without
 *   pages), are one flow of text, packed as above; so are a PDF's pages when they have no headings. Any other
 *   change of section starts a new chunk, unless the new section can join the open chunk whole: it fits, it
 *   shares the top-level heading of the section before or sits on the same or the next page, and it or the
 *   open chunk is small (under a quarter of maxTokens). So one-line slides or short Markdown sections do not
 *   become hundreds of tiny chunks, while big sections and other top-level topics get chunks of their own.
 *   A joining section brings its heading path as a line; the chunk keeps the page and headings it starts with.
 * - A chunk whose section has headings starts with the path ("Installation > On Linux") and a blank line,
 *   counted in the budget; the path is shortened to its last heading, then dropped, if it would take more than
 *   a quarter of the budget.
 * - Chunks whose new text is only whitespace and punctuation (no letter, digit or pictograph) are dropped.
 *
 * Each sentence is counted once and counts are summed; only each finished chunk is counted again, to report
 * its exact count and to move its last pieces to the next chunk in the rare case the sum was too low.
 */
export function chunkDocument(doc: ParsedDocument, options: ChunkingOptions = DEFAULT_CHUNKING): TextChunk[] {
  checkOptions(options);
  const packer = new ChunkPacker(options);
  for (const section of doc.sections) packer.addSection(section);
  return packer.finish();
}

function checkOptions({ maxTokens, overlapTokens }: ChunkingOptions): void {
  if (!Number.isInteger(maxTokens) || maxTokens < 16) {
    throw new RangeError(`maxTokens must be an integer of at least 16, got ${maxTokens}`);
  }
  if (!Number.isInteger(overlapTokens) || overlapTokens < 0 || overlapTokens * 2 >= maxTokens) {
    throw new RangeError(`overlapTokens must be an integer from 0 to under half of maxTokens, got ${overlapTokens}`);
  }
}

/** Consecutive sections read as one text: same heading path, same or next page. */
interface Flow {
  headings: string[];
  /** The heading line chunks of this flow start with; empty for none. */
  prefix: string;
  /** Tokens of the prefix and the blank line after it. */
  prefixTokens: number;
}

/** Finest last; a unit is only ever cut into units of a finer kind. */
type UnitKind = 'heading' | 'paragraph' | 'sentence' | 'word' | 'run';

/** A piece of text the packer places whole, or cuts into finer units when it cannot. */
interface Unit {
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
  /** Finer units, computed once when first needed; empty when the unit cannot be cut. */
  children?: readonly Unit[];
}

interface OpenChunk {
  flow: Flow;
  /** Overlap units first, then the new ones. */
  units: Unit[];
  overlapCount: number;
  /** Estimate, prefix included. */
  tokens: number;
}

interface SectionPlace {
  headings: string[];
  page: number | undefined;
}

const PARAGRAPH_SEP = '\n\n';

class ChunkPacker {
  readonly #maxTokens: number;
  readonly #overlapTokens: number;
  readonly #chunks: TextChunk[] = [];
  /** Units still to place, the next one last. */
  readonly #pending: Unit[] = [];
  #chunk: OpenChunk | undefined;
  /** Where the previous non-empty section was, and its flow. */
  #last: SectionPlace | undefined;
  #flow: Flow | undefined;

  constructor(options: ChunkingOptions) {
    this.#maxTokens = options.maxTokens;
    this.#overlapTokens = options.overlapTokens;
  }

  addSection(section: DocumentSection): void {
    const paragraphs = splitParagraphs(section.text);
    if (paragraphs.length === 0) return;
    const place: SectionPlace = { headings: cleanHeadings(section.headings), page: section.pageNumber };
    const last = this.#last;
    this.#last = place;

    if (last !== undefined && this.#flow !== undefined && continuesFlow(last, place)) {
      const flow = this.#flow;
      this.#placeAll(paragraphs.map((text) => paragraphUnit(text, flow, place.page)));
      return;
    }
    const flow = this.#newFlow(place.headings);
    this.#flow = flow;
    const units = paragraphs.map((text) => paragraphUnit(text, flow, place.page));
    if (last !== undefined && this.#chunk !== undefined) {
      if (flow.prefix !== '' && !sameHeadings(last.headings, place.headings)) {
        units.unshift(makeUnit('heading', PARAGRAPH_SEP, flow.prefix, flow, place.page, true));
      }
      if (this.#canMerge(this.#chunk, last, place, units)) {
        this.#placeAll(units);
        return;
      }
      if (units[0]!.kind === 'heading') units.shift();
    }
    this.#flush();
    this.#chunk = openChunk(flow, []);
    this.#placeAll(units);
  }

  finish(): TextChunk[] {
    this.#flush();
    return this.#chunks;
  }

  /** A small section joins the chunk before it, whole, when it fits and is about the same thing. */
  #canMerge(chunk: OpenChunk, last: SectionPlace, next: SectionPlace, units: readonly Unit[]): boolean {
    if (chunk.units.length === chunk.overlapCount) return false;
    const sameTopHeading = last.headings.length > 0 && last.headings[0] === next.headings[0];
    if (!sameTopHeading && !adjacentPages(last, next)) return false;
    const small = this.#maxTokens / 4;
    const sectionTokens = sumTokens(units);
    const chunkBody = chunk.tokens - chunk.flow.prefixTokens;
    return chunk.tokens + sectionTokens <= this.#maxTokens && (sectionTokens < small || chunkBody < small);
  }

  #newFlow(headings: string[]): Flow {
    const quarter = this.#maxTokens / 4;
    for (const prefix of [headings.join(' > '), headings.at(-1) ?? '']) {
      if (prefix === '') break;
      const prefixTokens = countTokens(prefix + PARAGRAPH_SEP);
      if (prefixTokens <= quarter) return { headings, prefix, prefixTokens };
    }
    return { headings, prefix: '', prefixTokens: 0 };
  }

  #placeAll(units: readonly Unit[]): void {
    pushReversed(this.#pending, units);
    this.#drain();
  }

  #drain(): void {
    for (let unit = this.#pending.pop(); unit !== undefined; unit = this.#pending.pop()) this.#place(unit);
  }

  #place(unit: Unit): void {
    let chunk = this.#chunk ?? openChunk(unit.flow, []);
    const hasNew = chunk.units.length > chunk.overlapCount;
    if (!hasNew && chunk.flow !== unit.flow) chunk = openChunk(unit.flow, []);
    this.#chunk = chunk;
    // A merged section's heading line is only useful inside a chunk; a chunk it would open has it as prefix.
    if (unit.kind === 'heading' && !hasNew) return;

    if (chunk.tokens + unit.tokens <= this.#maxTokens) {
      chunk.units.push(unit);
      chunk.tokens += unit.tokens;
    } else if (hasNew && unit.flow.prefixTokens + this.#overlapTokens + unit.tokens <= this.#maxTokens) {
      // Fits a new chunk with its overlap: end this one here.
      this.#pending.push(unit);
      this.#finishChunk();
    } else if (!hasNew && chunk.overlapCount > 0) {
      dropOverlapHead(chunk);
      this.#pending.push(unit);
    } else {
      const children = refine(unit);
      if (children.length > 0) {
        pushReversed(this.#pending, children);
      } else {
        // A single code point: cannot exceed a budget of 16 tokens, but never loop.
        chunk.units.push(unit);
        chunk.tokens += unit.tokens;
      }
    }
  }

  /** Ends the open chunk and everything cut back out of it. */
  #flush(): void {
    for (;;) {
      this.#drain();
      const chunk = this.#chunk;
      if (chunk === undefined || chunk.units.length === chunk.overlapCount) return;
      this.#finishChunk();
    }
  }

  /**
   * Emits the open chunk after checking its exact count, moving its last units back to `#pending` if the
   * estimate was low, and opens the next chunk with the overlap when the same flow goes on.
   */
  #finishChunk(): void {
    const chunk = this.#chunk!;
    let text = chunkText(chunk);
    let tokens = countTokens(text);
    while (tokens > this.#maxTokens) {
      if (chunk.units.length - chunk.overlapCount > 1) {
        let removed = 0;
        while (
          chunk.units.length - chunk.overlapCount > 1 &&
          (removed < tokens - this.#maxTokens || chunk.units.at(-1)!.kind === 'heading')
        ) {
          const unit = chunk.units.pop()!;
          this.#pending.push(unit);
          removed += unit.tokens;
        }
      } else if (chunk.overlapCount > 0) {
        chunk.units.splice(0, chunk.overlapCount);
        chunk.overlapCount = 0;
      } else {
        const children = refine(chunk.units[0]!);
        if (children.length === 0) break;
        pushReversed(this.#pending, children);
        chunk.units = [];
        chunk.tokens = chunk.flow.prefixTokens;
        return;
      }
      chunk.tokens = chunk.flow.prefixTokens + sumTokens(chunk.units);
      text = chunkText(chunk);
      tokens = countTokens(text);
    }

    const fresh = chunk.units.slice(chunk.overlapCount);
    const useful = fresh.some((unit) => HAS_WORD.test(unit.text));
    if (useful) {
      const first = chunk.units[0]!;
      this.#chunks.push({
        ordinal: this.#chunks.length,
        text,
        ...(first.page === undefined ? {} : { pageNumber: first.page }),
        ...(chunk.flow.headings.length === 0 ? {} : { headings: [...chunk.flow.headings] }),
        tokens,
      });
    }
    const next = this.#pending.at(-1);
    if (next === undefined) {
      this.#chunk = openChunk(chunk.flow, []);
      return;
    }
    const budget = Math.min(this.#overlapTokens, Math.floor((chunk.tokens - chunk.flow.prefixTokens) / 2));
    this.#chunk = openChunk(next.flow, useful ? overlapTail(chunk.units, budget, next.flow) : []);
  }
}

function openChunk(flow: Flow, overlap: Unit[]): OpenChunk {
  return { flow, units: overlap, overlapCount: overlap.length, tokens: flow.prefixTokens + sumTokens(overlap) };
}

function dropOverlapHead(chunk: OpenChunk): void {
  do {
    chunk.tokens -= chunk.units.shift()!.tokens;
    chunk.overlapCount -= 1;
  } while (chunk.overlapCount > 0 && !chunk.units[0]!.wordStart);
}

function chunkText(chunk: OpenChunk): string {
  let text = chunk.flow.prefix === '' ? '' : chunk.flow.prefix + PARAGRAPH_SEP;
  chunk.units.forEach((unit, index) => {
    text += index === 0 ? unit.text : unit.sep + unit.text;
  });
  return text;
}

/**
 * The last units of a finished chunk, about `budget` tokens, to open the next one: whole sentences when they
 * give at least half the budget, otherwise down to words; never from another flow or a heading line.
 */
function overlapTail(units: readonly Unit[], budget: number, flow: Flow): Unit[] {
  const picked: Unit[] = [];
  let total = 0;
  const collect = (list: readonly Unit[]): void => {
    for (let index = list.length - 1; index >= 0; index--) {
      const unit = list[index]!;
      if (unit.flow !== flow || unit.kind === 'heading') return;
      if (total + unit.tokens <= budget) {
        picked.push(unit);
        total += unit.tokens;
        continue;
      }
      const children = refine(unit);
      if (total < budget / 2 || children[0]?.kind === 'sentence') collect(children);
      return;
    }
  };
  collect(units);
  picked.reverse();
  while (picked.length > 0 && !picked[0]!.wordStart) picked.shift();
  return picked;
}

function continuesFlow(last: SectionPlace, next: SectionPlace): boolean {
  if (!sameHeadings(last.headings, next.headings)) return false;
  return last.page === undefined ? next.page === undefined : adjacentPages(last, next);
}

function adjacentPages(last: SectionPlace, next: SectionPlace): boolean {
  if (last.page === undefined || next.page === undefined) return false;
  return next.page === last.page || next.page === last.page + 1;
}

function sameHeadings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((heading, index) => heading === b[index]);
}

function cleanHeadings(headings: readonly string[] | undefined): string[] {
  return (headings ?? []).map((heading) => heading.replace(/\s+/g, ' ').trim()).filter((heading) => heading !== '');
}

/** Letters, digits, pictographs: a chunk without any is only whitespace and punctuation. */
const HAS_WORD = /[\p{L}\p{N}\p{So}]/u;

// --- Cutting text into units -------------------------------------------------------------------------------

function splitParagraphs(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[^\S\n]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '');
}

/**
 * A sentence ends at `.` `!` `?` `…` (and closing quotes or brackets) followed by space and something other
 * than a lower-case letter or a digit ("e.g. this", "p. 12" go on), at `。` `！` `？`, or at a line break.
 */
const SENTENCE_END = /([.!?…]+['"’”»)\]]*)(\s+)(?=[^\s\p{Ll}\p{N}])|([。！？]+[」』”’）]*)(\s*)(?=\S)|(\s*\n\s*)/gu;

function paragraphUnit(text: string, flow: Flow, page: number | undefined): Unit {
  const sentences: Unit[] = [];
  let start = 0;
  let sep = PARAGRAPH_SEP;
  const addSentence = (end: number): void => {
    if (end <= start) return;
    sentences.push(makeUnit('sentence', sep, text.slice(start, end), flow, page, true));
  };
  for (const match of text.matchAll(SENTENCE_END)) {
    const end = match.index + (match[1] ?? match[3] ?? '').length;
    addSentence(end);
    sep = match[2] ?? match[4] ?? match[5] ?? '';
    start = end + sep.length;
  }
  addSentence(text.length);
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

function makeUnit(kind: UnitKind, sep: string, text: string, flow: Flow, page: number | undefined, wordStart: boolean): Unit {
  return { kind, text, sep, tokens: countTokens(sep + text), flow, page, wordStart };
}

/** The unit cut one level finer: sentences, words, word segments, characters; empty when it cannot be. */
function refine(unit: Unit): readonly Unit[] {
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

function groupSegments(text: string, segmenter: Intl.Segmenter, size: number): string[] {
  const groups: string[] = [];
  let group = '';
  for (const { segment } of segmenter.segment(text)) {
    group += segment;
    if (group.length >= size) {
      groups.push(group);
      group = '';
    }
  }
  if (group !== '') groups.push(group);
  return groups;
}

function runUnits(unit: Unit, texts: readonly string[], startsWord: (text: string, previous: string) => boolean): Unit[] {
  if (texts.length < 2) return [];
  return texts.map((text, index) =>
    index === 0
      ? makeUnit('run', unit.sep, text, unit.flow, unit.page, unit.wordStart)
      : makeUnit('run', '', text, unit.flow, unit.page, startsWord(text, texts[index - 1]!)),
  );
}

function sumTokens(units: readonly Unit[]): number {
  let sum = 0;
  for (const unit of units) sum += unit.tokens;
  return sum;
}

function pushReversed(stack: Unit[], units: readonly Unit[]): void {
  for (let index = units.length - 1; index >= 0; index--) stack.push(units[index]!);
}
