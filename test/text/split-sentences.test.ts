import { describe, expect, it } from 'vitest';
import { sentenceSpans, splitSentences } from '../../src/text/split-sentences.js';

describe('splitSentences', () => {
  it('returns verbatim slices: joins soft-wrapped lines, splits headings, list items and table rows', () => {
    const text =
      'Delivery report\nThere were 20,000 bottles of water, 10,000 blankets,\nand 200 laptops delivered. Dr. Smith signed it.\n\n' +
      '- first item\n- second item\nName: Ada; City: Paris\nName: Bob; City: Rome';
    const sentences = splitSentences(text);

    expect(sentences.map((s) => s.text)).toEqual([
      'Delivery report',
      'There were 20,000 bottles of water, 10,000 blankets,\nand 200 laptops delivered.',
      'Dr. Smith signed it.',
      '- first item',
      '- second item',
      'Name: Ada; City: Paris',
      'Name: Bob; City: Rome',
    ]);
    for (const s of sentences) expect(text.slice(s.start, s.start + s.text.length)).toBe(s.text);
  });

  it('goes on after an abbreviation, before a lower-case word or without a space; ends at CJK stops and after quotes', () => {
    const text = 'See Fig. 2 for the rates, e.g. in children. “It spreads.” Then it stopped! 病毒传播很快。我们需要疫苗。';
    expect(splitSentences(text).map((s) => s.text)).toEqual([
      'See Fig. 2 for the rates, e.g. in children.',
      '“It spreads.”',
      'Then it stopped!',
      '病毒传播很快。',
      '我们需要疫苗。',
    ]);
    // PDF text runs sentences together: a cut there would split a word.
    expect(splitSentences('Rates fell (e.g.Italy, 2020).Then they rose. Next').map((s) => s.text)).toEqual([
      'Rates fell (e.g.Italy, 2020).Then they rose.',
      'Next',
    ]);
  });

  it('leaves out sentences without a letter or digit, which sentenceSpans keeps', () => {
    expect(splitSentences('---\n\nA rule above.').map((s) => s.text)).toEqual(['A rule above.']);
    expect(sentenceSpans('---\n\nA rule above.')).toEqual([
      { start: 0, end: 3 },
      { start: 5, end: 18 },
    ]);
  });
});

describe('sentenceSpans', () => {
  it('puts every character but white space in exactly one span, in order', () => {
    const text = '  Title line\n\nFirst one. Second one?\nA soft\nwrap goes on; and (Dr. No) ends here…  \n - item\n\n* * *\n';
    const spans = sentenceSpans(text);
    let previousEnd = 0;
    for (const { start, end } of spans) {
      expect(start).toBeGreaterThanOrEqual(previousEnd);
      expect(text.slice(previousEnd, start).trim()).toBe('');
      const sentence = text.slice(start, end);
      expect(sentence).toBe(sentence.trim());
      expect(sentence).not.toBe('');
      previousEnd = end;
    }
    expect(text.slice(previousEnd).trim()).toBe('');
    expect(spans.map(({ start, end }) => text.slice(start, end))).toEqual([
      'Title line',
      'First one.',
      'Second one?',
      'A soft\nwrap goes on; and (Dr. No) ends here…',
      '- item',
      '* * *',
    ]);
  });

  it('ends a sentence at every line break and after an abbreviation when the rules say so', () => {
    const text = 'There were 20,000 bottles,\nand Dr. Smith signed. Then\nit ended';
    const cut = sentenceSpans(text, { softWraps: false, abbreviations: false }).map(({ start, end }) => text.slice(start, end));
    expect(cut).toEqual(['There were 20,000 bottles,', 'and Dr.', 'Smith signed.', 'Then', 'it ended']);
    expect(splitSentences(text).map((s) => s.text)).toEqual(['There were 20,000 bottles,\nand Dr. Smith signed.', 'Then\nit ended']);
  });

  it('gives nothing for an empty or blank text', () => {
    expect(sentenceSpans('')).toEqual([]);
    expect(sentenceSpans(' \n\n\t')).toEqual([]);
  });
});
