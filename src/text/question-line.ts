/** Words at most in a line that reads as a question heading ("How long does a refund take?"). */
const QUESTION_WORDS = 20;

/**
 * A question as a heading or as an FAQ entry's first line: short, one sentence, ending with "?". Such a
 * line points at the text beneath it: FAQ pages are chunked at their questions, and the offline answerer
 * quotes the answer beneath a matching question, never the question itself.
 */
export function isQuestionLine(line: string): boolean {
  const text = line.trim();
  if (!/\?["'’”)]*$/u.test(text)) return false;
  const words = text.split(/\s+/).length;
  // One sentence: no end punctuation before the question mark ("It broke. What now?" is prose).
  return words >= 2 && words <= QUESTION_WORDS && !/[.!?](?=\s)/.test(text.slice(0, -1));
}
