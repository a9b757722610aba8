import { extractTerms } from '../../text/extract-terms.js';

const contentTerms = (text: string): string[] =>
  extractTerms(text)
    .filter((term) => !term.isStopWord)
    .map((term) => term.key);

const pairs = (terms: readonly string[]): Set<string> => new Set(terms.slice(1).map((term, i) => `${terms[i]} ${term}`));

/**
 * How closely a passage echoes the query's wording: the share of the query's content words it contains
 * plus the share of the query's adjacent word pairs it contains in the same order. Questions are often
 * phrased with the words of their answer, and word pairs catch that where a bag of words cannot.
 */
export function lexicalProximity(query: string, passage: string): number {
  const queryTerms = contentTerms(query);
  if (queryTerms.length === 0) return 0;
  const passageTerms = contentTerms(passage);
  const present = new Set(passageTerms);
  const coverage = new Set(queryTerms.filter((term) => present.has(term))).size / new Set(queryTerms).size;
  const queryPairs = pairs(queryTerms);
  if (queryPairs.size === 0) return coverage;
  const passagePairs = pairs(passageTerms);
  const pairCoverage = [...queryPairs].filter((pair) => passagePairs.has(pair)).length / queryPairs.size;
  return coverage + pairCoverage;
}
