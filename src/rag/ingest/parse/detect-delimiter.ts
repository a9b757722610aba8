import { parse } from 'csv-parse/sync';

const CANDIDATES = [',', ';', '\t', '|'] as const;
const SAMPLE_LINES = 100;
const SAMPLE_CHARACTERS = 64 * 1024;

export interface DelimiterGuess {
  delimiter: string;
  /** The column count most sampled records have. */
  columns: number;
  /** Sampled records (not lines: a quoted field may span lines). */
  records: number;
  /** Share of sampled records with exactly `columns` fields, 0..1. */
  consistency: number;
}

/**
 * The delimiter that splits the first lines into the same number (two or more) of fields most consistently,
 * parsing quotes properly so that delimiters inside quoted fields do not count. Undefined when none does.
 */
export function detectDelimiter(text: string): DelimiterGuess | undefined {
  const sample = text.length > SAMPLE_CHARACTERS ? sampleOf(text) : text;
  let best: DelimiterGuess | undefined;
  for (const delimiter of CANDIDATES) {
    const guess = tryDelimiter(sample, delimiter);
    if (guess && (!best || guess.consistency > best.consistency)) best = guess;
  }
  return best;
}

// Whole lines only, so that no record is cut in two.
function sampleOf(text: string): string {
  const lastLineEnd = text.lastIndexOf('\n', SAMPLE_CHARACTERS);
  return text.slice(0, lastLineEnd > 0 ? lastLineEnd : SAMPLE_CHARACTERS);
}

function tryDelimiter(text: string, delimiter: string): DelimiterGuess | undefined {
  let records: string[][];
  try {
    const options = { delimiter, to_line: SAMPLE_LINES, relax_column_count: true, skip_empty_lines: true, bom: true };
    records = parse(text, options);
  } catch {
    return undefined;
  }
  const columns = mostCommon(records.map((record) => record.length));
  if (columns < 2) return undefined;
  const consistency = records.filter((record) => record.length === columns).length / records.length;
  return { delimiter, columns, records: records.length, consistency };
}

function mostCommon(values: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best = 0;
  let bestCount = 0;
  for (const [value, count] of counts) {
    if (count > bestCount || (count === bestCount && value > best)) [best, bestCount] = [value, count];
  }
  return best;
}
