import { describe, expect, it } from 'vitest';
import { AnswerCitations } from '../../../src/llm/prompt/answer-citations.js';

/** Feeds the deltas; answers what was handed on for each, the whole text, and the prompt numbers cited. */
function run(deltas: readonly string[], passages = 4) {
  const citations = new AnswerCitations(passages);
  const handed = deltas.map((delta) => citations.add(delta));
  handed.push(citations.end());
  expect(handed.join('')).toBe(citations.text);
  return { handed, text: citations.text, cited: [...citations.cited] };
}

/** Every way of cutting `text` in two, plus one character at a time: the result must not depend on it. */
function splits(text: string): string[][] {
  return [[text], [...text], ...Array.from({ length: text.length - 1 }, (_, i) => [text.slice(0, i + 1), text.slice(i + 1)])];
}

describe('AnswerCitations', () => {
  it('renumbers the cited passages 1..k in the order of first citation and rewrites the markers', () => {
    const text = 'Returns take 30 days [3]. Refunds follow within a week [4], as said before [3].';
    for (const deltas of splits(text)) {
      expect(run(deltas)).toMatchObject({
        text: 'Returns take 30 days [1]. Refunds follow within a week [2], as said before [1].',
        cited: [3, 4],
      });
    }
  });

  it('renumbers each number of a citation list and leaves numbers that name no passage alone', () => {
    expect(run(['We ship to 40 countries [2, 4][1] since [2024]; see item [0] and [5].'])).toEqual(
      expect.objectContaining({ text: 'We ship to 40 countries [1, 2][3] since [2024]; see item [0] and [5].', cited: [2, 4, 1] }),
    );
  });

  it('cuts the list of sources a model writes anyway, with the blank space before it', () => {
    const endings = [
      '\n\nSources: ducks.txt; help.md',
      '\n\n**Sources:**\n- [2] help.md',
      '\nReferences:\n[2] help.md\n[3] ducks.txt',
      '\n\n## Sources\n1. help.md',
      '\n\nsources: [1] novel.txt',
    ];
    for (const ending of endings) {
      for (const deltas of splits(`We ship to the UK [2].${ending}`)) {
        expect(run(deltas)).toMatchObject({ text: 'We ship to the UK [1].', cited: [2] });
      }
    }
  });

  it('keeps lines that only start like a list of sources, and an answer that is nothing but one', () => {
    const text = 'Vitamin C [1].\n\n- Sources of iron include beans [3].\nSource code is on GitHub.';
    for (const deltas of splits(text)) {
      expect(run(deltas)).toMatchObject({ text: 'Vitamin C [1].\n\n- Sources of iron include beans [2].\nSource code is on GitHub.', cited: [1, 3] });
    }
    expect(run(['Sources: the help page [2].']).text).toBe('Sources: the help page [1].');
  });

  it('hands text on as soon as it is settled: only a citation or a line break being written waits', () => {
    const { handed } = run(['Twenty', ' thousand [', '2] bottles', '.\n', '\nThe', ' trucks [1]']);
    expect(handed).toEqual(['Twenty', ' thousand ', '[1] bottles', '.', '\n\nThe', ' trucks [2]', '']);
  });

  it('cites nothing when the answer has no citations', () => {
    expect(run(['I could not find this in the knowledge base.'])).toEqual(
      expect.objectContaining({ text: 'I could not find this in the knowledge base.', cited: [] }),
    );
  });
});
