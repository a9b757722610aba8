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
    expect(answer.text).toBe(`${shared} [1]`);
    expect(answer.cited.map((p) => p.number)).toEqual([1]);
  });

  it('quotes from the one passage that answers best and cites only it, with no sources line', () => {
    const answer = composeExtractiveAnswer('Where do ducks live?', [
      passage(1, 'Ducks live near ponds and rivers. The weather was cold.', 'ducks.pdf', 2),
      passage(2, 'Most ducks eat plants and insects.', 'food.md'),
    ]);
    expect(answer.found).toBe(true);
    expect(answer.text).toBe('Ducks live near ponds and rivers. [1]');
    expect(answer.cited.map((p) => p.number)).toEqual([1]);
  });

  it('quotes a sentence of another passage scoring nearly as well after the best one, citing both passages', () => {
    const answer = composeExtractiveAnswer('What symptoms does the measles virus cause?', [
      passage(1, 'The measles virus causes fever and a rash. Vaccines were introduced in 1963.'),
      passage(2, 'Ducks are waterfowl.'),
      passage(3, 'Symptoms of the measles virus also include cough and red eyes.'),
    ]);
    expect(answer.text).toBe('The measles virus causes fever and a rash. [1] Symptoms of the measles virus also include cough and red eyes. [3]');
    expect(answer.cited.map((p) => p.number)).toEqual([1, 3]);
  });

  it('answers with the text beneath a matching FAQ question, never with the question or its heading path', () => {
    const answer = composeExtractiveAnswer('How soon do I get my money back after a return?', [
      passage(
        1,
        'Help centre > Returns and refunds > How long does a refund take?\n\n' +
          'We check every return within 3 working days. The money is then paid back to your card and shows within 5–10 working days.',
      ),
      passage(2, 'Money back guarantees are common in retail. A return rate of 20% is typical for clothing.'),
    ]);
    expect(answer.text).toBe(
      'We check every return within 3 working days. The money is then paid back to your card and shows within 5–10 working days. [1]',
    );
  });

  it('treats a short question line followed by its answer in plain text as an FAQ entry', () => {
    const answer = composeExtractiveAnswer('Which cards do you take?', [
      passage(1, 'Can I pay by card?\nYes: we take Visa and Mastercard.\n\nDo you ship abroad?\nOnly within the EU.'),
    ]);
    expect(answer.text).toBe('Yes: we take Visa and Mastercard. [1]');
  });

  it('matches an acronym of the question with the words it stands for, and prefers the passage search ranked first', () => {
    const answer = composeExtractiveAnswer('Do you ship to the UK?', [
      passage(
        1,
        'Shipping > Which countries do you deliver to?\n\nWe deliver to the European Union and the United Kingdom. We do not ship to Canada.',
      ),
      passage(2, 'The study was led by the University of Hertfordshire, UK.'),
    ]);
    expect(answer.text).toContain('United Kingdom');
    expect(answer.cited.map((p) => p.number)).toEqual([1]);
  });

  it('weighs a passage by its rank: the same sentence in a lower passage loses', () => {
    const sentence = 'Opening hours are 9 to 5 on weekdays.';
    const answer = composeExtractiveAnswer('What are the opening hours?', [
      passage(1, 'Unrelated text about the weather.'),
      passage(2, sentence),
      passage(3, `Old notice: ${sentence}`),
    ]);
    expect(answer.text).toBe(`${sentence} [2]`);
  });

  it('keeps a lead-in with its list', () => {
    const answer = composeExtractiveAnswer('What plans do you offer?', [
      passage(
        1,
        'We offer three plans:\n- Starter: free for 3 users.\n- Team: $8 per user.\n- Enterprise: on request.\n\nAll plans include backups.',
      ),
    ]);
    expect(answer.text).toBe('We offer three plans: - Starter: free for 3 users. - Team: $8 per user. - Enterprise: on request. [1]');
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
