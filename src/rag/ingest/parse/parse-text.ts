import { readFile } from 'node:fs/promises';
import type { ParsedContent } from './document-parser.js';
import { decodeText } from './decode-text.js';
import { normalizeText } from './normalize-text.js';

/** Plain text in any common encoding, as one section whose paragraphs are its blank-line-separated blocks. */
export async function parseText(filePath: string): Promise<ParsedContent> {
  const { text } = decodeText(await readFile(filePath));
  return { sections: [{ text: normalizeText(text) }] };
}
