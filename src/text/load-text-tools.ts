import { loadTokenCounter } from './count-tokens.js';
import { extractTerms } from './extract-terms.js';
import { splitSentences } from './split-sentences.js';

/** A sentence with a word, a number, a name and punctuation: every path of the tools runs once. */
const REHEARSAL = 'How does Parley count 20,000 words? It reads each sentence once.';

/**
 * Decodes the tokenizer's rank table and compiles the Unicode-class regular expressions of the term and
 * sentence readers: together about half a second the first time, which a server start spends here so the
 * first question does not (every answer counts its prompt's tokens and weighs passages by their terms).
 */
export function loadTextTools(): void {
  loadTokenCounter();
  extractTerms(REHEARSAL);
  splitSentences(REHEARSAL);
}
