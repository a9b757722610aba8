import { readFile } from 'node:fs/promises';
import { UnreadableDocumentError } from '../document.js';
import type { ParsedContent } from './document-parser.js';
import { decodeText } from './decode-text.js';
import { flattenJson } from './flatten-json.js';

/** JSON (or JSON Lines) flattened into "path.to.key: value" lines, one block per record. */
export async function parseJson(filePath: string): Promise<ParsedContent> {
  const { text } = decodeText(await readFile(filePath));
  return { sections: [{ text: flattenJson(parseJsonText(text)).join('\n\n') }] };
}

function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const lines = jsonLines(text);
    if (lines) return lines;
    throw new UnreadableDocumentError(`The file is not valid JSON${whereInvalid(text, error)}`, { cause: error });
  }
}

// JSON Lines: one value per line, common for exports and logs.
function jsonLines(text: string): unknown[] | undefined {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines.length < 2) return undefined;
  try {
    return lines.map((line) => JSON.parse(line) as unknown);
  } catch {
    return undefined;
  }
}

// V8's messages differ between Node versions; both name a character position.
function whereInvalid(text: string, error: unknown): string {
  const position = error instanceof Error ? /position (\d+)/.exec(error.message)?.[1] : undefined;
  if (position === undefined) return '';
  return ` (error on line ${text.slice(0, Number(position)).split('\n').length})`;
}
