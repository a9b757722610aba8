/**
 * BM25's inverse document frequency of a term found in `containing` of `documents` texts: high for a rare
 * term, near 0 for one every text has (never negative, unlike the original formula).
 */
export function bm25Idf(documents: number, containing: number): number {
  return Math.log(1 + (documents - containing + 0.5) / (containing + 0.5));
}
