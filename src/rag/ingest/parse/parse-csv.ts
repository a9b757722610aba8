import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { UnreadableDocumentError } from '../document.js';
import type { ParsedContent } from './document-parser.js';
import { decodeText } from './decode-text.js';
import { detectDelimiter } from './detect-delimiter.js';
import type { ParseLimits } from './parse-limits.js';
import { renderRows } from './render-rows.js';
import { tooManyCells, tooManyColumns } from './unreadable.js';

/** Comma, semicolon, tab or pipe separated values, rendered like a spreadsheet sheet. */
export async function parseCsv(filePath: string, limits: ParseLimits): Promise<ParsedContent> {
  const { text } = decodeText(await readFile(filePath));
  const delimiter = detectDelimiter(text)?.delimiter ?? ',';
  return { sections: [{ text: renderRows(parseRecords(text, delimiter, limits)) }] };
}

function parseRecords(text: string, delimiter: string, limits: ParseLimits): string[][] {
  let cells = 0;
  // Checked record by record as the parser goes, so an oversized file stops before the rest of it is parsed.
  const withinLimits = (record: string[]): string[] => {
    if (record.length > limits.tableColumns) throw tooManyColumns(record.length, limits.tableColumns);
    cells += record.length;
    if (cells > limits.tableCells) throw tooManyCells(limits.tableCells);
    return record;
  };
  try {
    return parse(text, {
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      bom: true,
      on_record: withinLimits,
    });
  } catch (error) {
    if (error instanceof UnreadableDocumentError) throw error;
    throw new UnreadableDocumentError(csvProblem(error), { cause: error });
  }
}

function csvProblem(error: unknown): string {
  const lineNumber = error instanceof Error && 'lines' in error ? error.lines : undefined;
  const line = typeof lineNumber === 'number' ? ` near line ${lineNumber}` : '';
  const unclosed = error instanceof Error && 'code' in error && error.code === 'CSV_QUOTE_NOT_CLOSED';
  return unclosed ? `The CSV file has a quoted field that is never closed${line}` : `The file is damaged or not a valid CSV file (problem${line})`;
}
