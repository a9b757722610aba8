import { countTokens } from '../../text/count-tokens.js';
import { isQuestionLine } from '../../text/question-line.js';
import type { DocumentSection } from './document.js';
import { PARAGRAPH_SEP, makeUnit, paragraphUnit, refine, splitParagraphs, sumTokens, type Flow, type Unit } from './text-units.js';

export interface ChunkingOptions {
  /** No chunk's text, heading line included, has more cl100k tokens than this. At least 16. */
  maxTokens: number;
  /** About this many tokens of a chunk's tail open the next chunk of the same text. Under half of maxTokens. */
  overlapTokens: number;
}

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

/** Packs a document's sections, fed in order, into chunks by the rules `chunkDocument` (chunk-document.ts) lists. */
export class ChunkPacker {
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
    // One question of an FAQ with its answer per chunk: a question heading opens a chunk.
    if (isQuestionLine(next.headings.at(-1) ?? '')) return false;
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

    if (unit.asksQuestion && answersSomething(chunk)) {
      // An FAQ entry opens a chunk of its own, without the previous answer's tail.
      this.#pending.push(unit);
      this.#finishChunk();
    } else if (chunk.tokens + unit.tokens <= this.#maxTokens) {
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
        while (chunk.units.length - chunk.overlapCount > 1 && (removed < tokens - this.#maxTokens || chunk.units.at(-1)!.kind === 'heading')) {
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
    this.#chunk = openChunk(next.flow, useful && !next.asksQuestion ? overlapTail(chunk.units, budget, next.flow) : []);
  }
}

function openChunk(flow: Flow, overlap: Unit[]): OpenChunk {
  return { flow, units: overlap, overlapCount: overlap.length, tokens: flow.prefixTokens + sumTokens(overlap) };
}

/** Ends like a statement, not like a question or a title. */
const STATEMENT_END = /[.!:;…]["'”’)\]]*$/u;

/**
 * The chunk holds new text that says something (a statement, not only questions or a title), so an FAQ
 * entry after it may open the next chunk: a run of questions alone is not cut apart.
 */
function answersSomething(chunk: OpenChunk): boolean {
  return chunk.units.slice(chunk.overlapCount).some((unit) => unit.kind !== 'heading' && STATEMENT_END.test(unit.text.trimEnd()));
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

function pushReversed(stack: Unit[], units: readonly Unit[]): void {
  for (let index = units.length - 1; index >= 0; index--) stack.push(units[index]!);
}
