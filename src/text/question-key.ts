/** Apostrophes join the parts of a word ("what's", "l’eau"): they go without leaving a gap. */
const APOSTROPHES = /['’ʼ]/gu;
/** Anything but letters, combining marks and digits separates words, in every script. */
const SEPARATORS = /[^\p{L}\p{M}\p{N}]+/gu;

/**
 * Unicode compatibility forms unified and case folded: NFKC, then upper and lower case (which folds "ß"
 * with "SS" and a final sigma with the other one, as full case folding does where `toLowerCase` alone
 * does not), then NFKC again since case mapping may leave a sequence unnormalised. Locale-independent.
 */
const folded = (text: string): string => text.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');

/**
 * What a question is grouped by, so that its repeats count as one: folded as above, punctuation and symbols
 * removed, whitespace collapsed. "What's the PRICE?" and "whats  the price" give the same key; so do
 * full-width and ordinary letters. Words are not stemmed: "price" and "prices" stay apart, in any language
 * alike. A question of symbols only keeps its folded, trimmed text, so it is not grouped with every other.
 */
export function questionKey(question: string): string {
  const text = folded(question);
  const words = text.replace(APOSTROPHES, '').replace(SEPARATORS, ' ').trim();
  return words === '' ? text.replace(/\s+/gu, ' ').trim() : words;
}
