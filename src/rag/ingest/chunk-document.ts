import type { ParsedDocument } from './document.js';
import { ChunkPacker, type ChunkingOptions, type TextChunk } from './chunk-packer.js';

export type { ChunkingOptions, TextChunk } from './chunk-packer.js';

/** ~15% overlap. */
export const DEFAULT_CHUNKING: ChunkingOptions = { maxTokens: 400, overlapTokens: 60 };

/**
 * Cuts a document into chunks for retrieval, deterministically.
 *
 * - Whole paragraphs are packed greedily. A paragraph too big for a chunk is cut into its sentences (as
 *   `sentenceSpans` in src/text/split-sentences.ts finds them, every line break ending one), a sentence too
 *   big at spaces, and a "word" too big (a base64 blob, a URL, text in a script without spaces) at Unicode
 *   word boundaries, then between characters, never inside a surrogate pair.
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
