import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { QaMatcher, wordOverlap } from '../../src/domain/qa/qa-match.js';
import { LocalEmbedder } from '../../src/llm/embeddings/local-embedder.js';
const PARAPHRASES = path.resolve(import.meta.dirname, '../fixtures/qa/paraphrases.json');

interface ParaphraseSet {
  entries: { question: string; paraphrases: string[]; unrelated: string[] }[];
}

/** The figures qa-match.ts states, measured again on the paraphrase set with the built-in embedder. */
describe('matching a visitor question to a stored one', () => {
  const embedder = new LocalEmbedder({ threads: 1 });
  const matcher = new QaMatcher(async () => embedder);
  afterAll(() => embedder.close());

  it('matches most paraphrases of the set and none of its other questions', async () => {
    const set = JSON.parse(await fs.readFile(PARAPHRASES, 'utf8')) as ParaphraseSet;
    let matched = 0;
    let paraphrases = 0;
    const hijacked: string[] = [];
    for (const entry of set.entries) {
      for (const wording of entry.paraphrases) {
        paraphrases++;
        if ((await matcher.best(wording, [entry.question])) !== undefined) matched++;
      }
      for (const other of entry.unrelated)
        if ((await matcher.best(other, [entry.question])) !== undefined) hijacked.push(`${entry.question} ← ${other}`);
    }
    expect(hijacked).toEqual([]);
    expect(paraphrases).toBe(39);
    expect(matched).toBe(25);
  }, 60_000);

  it('matches a stored other wording as the question itself', async () => {
    expect(await matcher.best('Is delivery to Canada possible?', ['Do you ship to Canada?'])).toBeUndefined();
    expect(await matcher.best('Is delivery to Canada possible?', ['Do you ship to Canada?', 'Is delivery to Canada possible?'])).toMatchObject({
      overlap: 1,
    });
  });

  it('counts shared content words on the side with more of its own', () => {
    expect(wordOverlap('How do I reset my password?', 'how to reset password')).toBe(1);
    expect(wordOverlap('Do you ship to Canada?', 'How much does express shipping to Canada cost?')).toBe(0.5);
    expect(wordOverlap('What is it?', 'Who are you?')).toBe(0);
  });
});
