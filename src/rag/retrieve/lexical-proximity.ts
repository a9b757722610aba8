import { extractTerms } from '../../text/extract-terms.js';

/** A text's content words in order, with their adjacent pairs: what proximity compares. */
export interface TermProfile {
  terms: ReadonlySet<string>;
  pairs: ReadonlySet<string>;
}

export function termProfile(text: string): TermProfile {
  const terms = extractTerms(text)
    .filter((term) => !term.isStopWord)
    .map((term) => term.key);
  return { terms: new Set(terms), pairs: new Set(terms.slice(1).map((term, i) => `${terms[i]} ${term}`)) };
}

/**
 * How closely a passage echoes the query's wording: the share of the query's content words it contains
 * plus the share of the query's adjacent word pairs it contains in the same order. Questions are often
 * phrased with the words of their answer, and word pairs catch that where a bag of words cannot.
 */
export function lexicalProximity(query: TermProfile, passage: TermProfile): number {
  if (query.terms.size === 0) return 0;
  const coverage = [...query.terms].filter((term) => passage.terms.has(term)).length / query.terms.size;
  if (query.pairs.size === 0) return coverage;
  return coverage + [...query.pairs].filter((pair) => passage.pairs.has(pair)).length / query.pairs.size;
}
