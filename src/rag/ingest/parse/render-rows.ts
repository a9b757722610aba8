import { collapseWhitespace } from './normalize-text.js';

const NUMBER_LIKE = /^[-+(]?[$€£¥]?\s?\d[\d\s.,:/-]*%?\)?$/;
const BOOLEAN_LIKE = /^(true|false)$/i;

/**
 * Table rows as text lines. When the first row looks like a header, every cell is paired with its column
 * ("Name: Ada; City: Paris") so a chunk holding only a few rows still says what each value is; otherwise
 * cells are joined with " | ".
 */
export function renderRows(rows: ReadonlyArray<readonly string[]>): string {
  const cleaned = rows.map((row) => trimEnd(row.map(collapseWhitespace))).filter((row) => row.length > 0);
  const [header, ...records] = cleaned;
  if (!header) return '';
  if (records.length > 0 && looksLikeHeader(header)) return records.map((row) => pairWithHeader(header, row)).join('\n');
  return cleaned.map(tableRowText).join('\n');
}

/** A table row as one line: cells joined with " | ", trailing empty cells left off. */
export function tableRowText(cells: readonly string[]): string {
  return trimEnd(cells.map(collapseWhitespace)).join(' | ');
}

function looksLikeHeader(row: readonly string[]): boolean {
  const labels = row.filter(Boolean);
  return (
    labels.length === row.length &&
    new Set(labels).size === labels.length &&
    labels.every((label) => label.length <= 80 && !NUMBER_LIKE.test(label) && !BOOLEAN_LIKE.test(label))
  );
}

function pairWithHeader(header: readonly string[], row: readonly string[]): string {
  return row
    .map((value, i) => (value ? `${header[i] ?? `Column ${i + 1}`}: ${value}` : ''))
    .filter(Boolean)
    .join('; ');
}

function trimEnd(row: readonly string[]): readonly string[] {
  let end = row.length;
  while (end > 0 && row[end - 1] === '') end--;
  return row.slice(0, end);
}
