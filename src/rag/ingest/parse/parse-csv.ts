import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { UnreadableDocumentError } from '../document.js';
import type { ParsedContent } from './document-parser.js';
import { decodeText } from './decode-text.js';
import { detectDelimiter } from './detect-delimiter.js';
import { renderRows } from './render-rows.js';

/** Comma, semicolon, tab or pipe separated values, rendered like a spreadsheet sheet. */
export async function parseCsv(filePath: string): Promise<ParsedContent> {
  const { text } = decodeText(await readFile(filePath));
  const delimiter = detectDelimiter(text)?.delimiter ?? ',';
  return { sections: [{ text: renderRows(parseRecords(text, delimiter)) }] };
}

function parseRecords(text: string, delimiter: string): string[][] {
  try {
    return parse(text, { delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, bom: true });
  } catch (error) {
    throw new UnreadableDocumentError(csvProblem(error), { cause: error });
  }
}

function csvProblem(error: unknown): string {
  const lineNumber = error instanceof Error && 'lines' in error ? error.lines : undefined;
  const line = typeof lineNumber === 'number' ? ` near line ${lineNumber}` : '';
  const unclosed = error instanceof Error && 'code' in error && error.code === 'CSV_QUOTE_NOT_CLOSED';
  return unclosed
    ? `The CSV file has a quoted field that is never closed${line}`
    : `The file is damaged or not a valid CSV file (problem${line})`;
}
