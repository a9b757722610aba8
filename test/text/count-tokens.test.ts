import { readFileSync } from 'node:fs';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { describe, expect, it } from 'vitest';
import { countTokens } from '../../src/text/count-tokens.js';
import { COVID_QA_CORPUS } from '../support/fixtures.js';

const corpusFile = COVID_QA_CORPUS;

/** The reference: js-tiktoken encoding the whole text at once, special tokens as plain text. */
const reference = new Tiktoken(cl100k);
const referenceCount = (text: string): number => reference.encode(text, [], []).length;

describe('countTokens', () => {
  it('counts cl100k tokens of known strings', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('Installation > On Linux\n\n')).toBe(referenceCount('Installation > On Linux\n\n'));
  });

  it.each([
    ['prose', 'The quick brown fox jumps over the lazy dog. It’s 2024; isn’t it?'],
    ['numbers', 'In 2019, 1,234,567.89 people (12.5%) paid $3,000–4,500 each.'],
    ['code', 'function f(x: number): number {\n    return x ** 2; // square\n}\n\n\tconst y = [1, 2, 3];'],
    ['whitespace', 'a  b\t\tc\n\n\n   d     \n e'],
    ['CJK', '检索增强生成能够提高回答的准确性。日本語のテキストも含まれます。한국어 텍스트도 있습니다.'],
    ['emoji', 'Ship it 🚀👍🏽 — 👩‍🔬 approves ✅'],
    ['special-token text', 'A document may contain <|endoftext|> or <|fim_prefix|> literally.'],
    ['URL', 'See https://example.com/very-long-path_segment/with?query=1&other=two#frag for details.'],
  ])('matches js-tiktoken on %s', (_name, text) => {
    expect(countTokens(text)).toBe(referenceCount(text));
  });

  it('matches js-tiktoken on a whole real article', () => {
    const line = readFileSync(corpusFile, 'utf8').split('\n')[0]!;
    const article = (JSON.parse(line) as { text: string }).text;
    expect(article.length).toBeGreaterThan(10_000);
    expect(countTokens(article)).toBe(referenceCount(article));
    expect(countTokens(article)).toBe(countTokens(article));
  });

  it('over-counts slightly, never under, a run of letters too long to merge exactly', () => {
    const runs = ['a'.repeat(1_000), 'thequickbrownfoxjumpsoverthelazydog'.repeat(8), '检索增强生成能够提高回答的准确性'.repeat(20)];
    for (const run of runs) {
      const exact = referenceCount(run);
      expect(countTokens(run)).toBeGreaterThanOrEqual(exact);
      expect(countTokens(run)).toBeLessThanOrEqual(exact * 1.3);
    }
  });

  it('counts a megabyte without spaces', () => {
    expect(countTokens('x'.repeat(1_000_000))).toBeGreaterThan(100_000);
  });
});
