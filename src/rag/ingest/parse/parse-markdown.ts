import { readFile } from 'node:fs/promises';
import type { ParsedContent } from './document-parser.js';
import { decodeText } from './decode-text.js';
import { markdownBlocks } from './markdown-blocks.js';
import { cleanCharacters } from './normalize-text.js';
import { sectionsFromBlocks } from './text-block.js';

/** Sections split at headings, each with its heading path; code fences verbatim, inline syntax stripped. */
export async function parseMarkdown(filePath: string): Promise<ParsedContent> {
  const { text } = decodeText(await readFile(filePath));
  const { blocks, title } = markdownBlocks(cleanCharacters(text));
  return { sections: sectionsFromBlocks(blocks), title };
}
