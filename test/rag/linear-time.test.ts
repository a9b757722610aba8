import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentKind } from '../../src/rag/ingest/document.js';
import { PARSE_LIMITS } from '../../src/rag/ingest/parse/parse-limits.js';
import { prepareDocument } from '../../src/rag/ingest/prepare-document.js';

/**
 * Inputs that took time in proportion to the square of their length before (the report's 200 KB of "[" held a
 * parse thread two minutes). Each is read (parsed and chunked, as in a parse thread) at SMALL and four times
 * that; in linear time the larger takes about four times as long, in quadratic time sixteen.
 */
const SMALL = 25_000;
/** Four times the size may take at most this many times as long: under 2.9 per doubling. */
const MAX_RATIO = 8;
/** The larger input (100,000 characters) is read within this; with Intl.Segmenter or a regex gone quadratic, seconds to minutes. */
const MAX_LARGE_MS = 1_500;

const repeated =
  (unit: string, prefix = '') =>
  (size: number): string =>
    prefix + unit.repeat(Math.ceil(size / unit.length)).slice(0, size) + ' and some words at the end.';

/** A long run of backticks that nothing closes, then words: a code span was sought from every backtick of it. */
const backtickRun = (size: number): string => 'See ' + '`'.repeat(size / 2) + ' a'.repeat(size / 4);

const CASES: ReadonlyArray<{ name: string; kind: DocumentKind; text: (size: number) => string }> = [
  { name: 'Markdown: unclosed "[" (the report\'s file)', kind: 'markdown', text: repeated('[') },
  { name: 'Markdown: link texts with spaces, never closed', kind: 'markdown', text: repeated('[a ') },
  { name: 'Markdown: "[a](" link addresses never closed', kind: 'markdown', text: repeated('[a](') },
  { name: 'Markdown: link addresses with an open parenthesis', kind: 'markdown', text: repeated('[a](b(') },
  { name: 'Markdown: angle-bracket addresses never closed', kind: 'markdown', text: repeated('[a](<') },
  { name: 'Markdown: unclosed images "!["', kind: 'markdown', text: repeated('![') },
  { name: 'Markdown: unclosed reference images "![a]["', kind: 'markdown', text: repeated('![a][') },
  { name: 'Markdown: unclosed strong emphasis "**a "', kind: 'markdown', text: repeated('**a ') },
  { name: 'Markdown: unclosed emphasis "*a "', kind: 'markdown', text: repeated('*a ') },
  { name: 'Markdown: unclosed emphasis "_a "', kind: 'markdown', text: repeated('_a ') },
  { name: 'Markdown: unclosed strong emphasis "__a "', kind: 'markdown', text: repeated('__a ') },
  { name: 'Markdown: nested emphasis markers "*a_"', kind: 'markdown', text: repeated('*a_') },
  { name: 'Markdown: unclosed strikethrough "~~a "', kind: 'markdown', text: repeated('~~a ') },
  { name: 'Markdown: single and double stars, never closed', kind: 'markdown', text: repeated('* **a ') },
  { name: 'Markdown: a long run of backticks, never closed', kind: 'markdown', text: backtickRun },
  { name: 'Markdown: unclosed HTML comments', kind: 'markdown', text: repeated('<!-- ') },
  { name: 'Markdown: unclosed autolinks "<http:"', kind: 'markdown', text: repeated('<http:') },
  { name: 'Markdown: HTML entities', kind: 'markdown', text: repeated('&amp;&#') },
  { name: 'Markdown: escapes "\\["', kind: 'markdown', text: repeated('\\[') },
  { name: 'Markdown: a heading line of spaces', kind: 'markdown', text: (size) => `# a${' '.repeat(size)}b\n\nThe text under it.` },
  { name: 'text: punctuation without spaces', kind: 'txt', text: repeated('.,;:!?') },
  { name: 'text: a run of "?"', kind: 'txt', text: repeated('?') },
  { name: 'text: a run of "<"', kind: 'txt', text: repeated('<') },
  { name: 'text: one long hyphenated word', kind: 'txt', text: repeated('a-') },
  { name: 'text: Chinese without punctuation', kind: 'txt', text: repeated('人人生而自由在尊严和权利上一律平等') },
];

describe('reading pathological text', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'parley-linear-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /**
   * CPU milliseconds to parse and chunk `text` as `kind`, the best of three reads: CPU time, not the clock, so
   * that other processes on the machine do not count, and the best, since a garbage collection can double one.
   */
  async function readingMs(kind: DocumentKind, text: string): Promise<number> {
    const file = path.join(dir, `input.${kind}`);
    await writeFile(file, text);
    let best = Infinity;
    for (let read = 0; read < 3; read++) {
      const started = process.cpuUsage();
      const prepared = await prepareDocument({ filePath: file, kind, chunking: { maxTokens: 400, overlapTokens: 60 }, limits: PARSE_LIMITS });
      const { user, system } = process.cpuUsage(started);
      best = Math.min(best, (user + system) / 1000);
      expect(prepared.ok).toBe(true);
      if (best > MAX_LARGE_MS) break;
    }
    return best;
  }

  it.each(CASES)('$name takes time in proportion to its length', async ({ kind, text }) => {
    const small = await readingMs(kind, text(SMALL));
    // A quadratic reader already shows at the small size: stop there rather than wait minutes for the large one.
    expect(small).toBeLessThan(MAX_LARGE_MS);
    const large = await readingMs(kind, text(4 * SMALL));
    expect(large).toBeLessThan(MAX_LARGE_MS);
    // Under ten milliseconds, a timer tick and the reader's fixed costs are the measurement: compare from there.
    expect(large / Math.max(small, 10)).toBeLessThan(MAX_RATIO);
  });
});
