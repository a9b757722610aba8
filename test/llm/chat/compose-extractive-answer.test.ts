import { describe, expect, it } from 'vitest';
import { NOT_FOUND_ANSWER, composeExtractiveAnswer } from '../../../src/llm/chat/compose-extractive-answer.js';
import { extractTerms, stem } from '../../../src/text/extract-terms.js';
import type { LabelledPassage } from '../../../src/llm/prompt/context-block.js';

const passage = (number: number, text: string, source = `doc-${number}.txt`, pageNumber: number | null = null): LabelledPassage => ({
  number,
  source,
  pageNumber,
  text,
});

describe('extractTerms', () => {
  it('normalises numbers, stems lightly and flags names and stop words', () => {
    const terms = extractTerms('How many bottles did the Red Cross deliver in 2023, e.g. 20,000 or 3.5?');
    expect(terms.filter((t) => !t.isStopWord).map((t) => t.key)).toEqual(['bottl', 'red', 'cross', 'deliver', '2023', '20000', '3.5']);
    expect(terms.filter((t) => t.isEntity).map((t) => t.key)).toEqual(['red', 'cross']);
    expect(['bottles', 'bottle'].map(stem)).toEqual(['bottl', 'bottl']);
    expect(['delivered', 'delivery', 'deliveries'].map(stem)).toEqual(['deliver', 'deliver', 'deliver']);
    expect(['running', 'stopped', 'hours'].map(stem)).toEqual(['run', 'stop', 'hour']);
  });
});

describe('composeExtractiveAnswer', () => {
  it('quotes a sentence repeated by overlapping chunks once, citing the better-ranked chunk', () => {
    const shared = 'The warehouse opens at 8 am on weekdays.';
    const answer = composeExtractiveAnswer('When does the warehouse open?', [
      passage(1, `Staff park behind the building. ${shared}`),
      passage(2, `${shared} Deliveries arrive at noon.`),
    ]);
    expect(answer.text).toBe(`${shared} [1]\n\nSources: [1] doc-1.txt`);
    expect(answer.cited.map((p) => p.number)).toEqual([1]);
  });

  it('quotes up to three relevant sentences from several passages and lists each source once', () => {
    const answer = composeExtractiveAnswer('What do ducks eat and where do ducks live?', [
      passage(1, 'Ducks live near ponds and rivers. The weather was cold.', 'ducks.pdf', 2),
      passage(2, 'Most ducks eat plants and insects.', 'food.md'),
    ]);
    expect(answer.found).toBe(true);
    expect(answer.text).toContain('Ducks live near ponds and rivers. [1]');
    expect(answer.text).toContain('Most ducks eat plants and insects. [2]');
    expect(answer.text).not.toContain('weather');
    expect(answer.text).toMatch(/\n\nSources: \[1\] ducks\.pdf, page 2; \[2\] food\.md$|\n\nSources: \[2\] food\.md; \[1\] ducks\.pdf, page 2$/);
  });

  it('prefers the sentence holding the number asked for', () => {
    const answer = composeExtractiveAnswer('How many volunteers joined?', [
      passage(1, 'Volunteers joined from every district and worked hard.'),
      passage(2, 'In total, 340 volunteers joined the effort.'),
    ]);
    expect(answer.text.startsWith('In total, 340 volunteers joined the effort. [2]')).toBe(true);
  });

  it('cuts a very long sentence to the window around the question terms, marked with ellipses', () => {
    const filler = Array.from({ length: 50 }, (_, i) => `word${i}`).join(' ');
    const long = `${filler} the generator needs 40 litres of diesel per day ${filler}.`;
    const answer = composeExtractiveAnswer('How much diesel does the generator need?', [passage(1, long)]);
    const quoted = answer.text.split(' [1]')[0] ?? '';

    expect(quoted).toMatch(/^….*…$/);
    expect(quoted).toContain('the generator needs 40 litres of diesel per day');
    expect(long).toContain(quoted.slice(1, -1));
  });

  it('answers nothing when only a minor term of the question matches', () => {
    const answer = composeExtractiveAnswer('What is the capital of Peru?', [
      passage(1, 'Working capital is current assets minus current liabilities.'),
      passage(2, 'Ducks are waterfowl.'),
    ]);
    expect(answer).toEqual({ text: NOT_FOUND_ANSWER, found: false, cited: [] });
  });
});
