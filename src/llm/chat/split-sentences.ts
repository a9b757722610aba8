/** A sentence of a passage: its exact text and where it starts. */
export interface Sentence {
  text: string;
  start: number;
}

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

// ICU ends a sentence after these ("Dr. Smith"); they almost never end one.
const ABBREVIATION = /(?:^|[\s(])(?:mr|mrs|ms|dr|prof|sr|jr|st|vs|no|nos|fig|approx|dept|inc|ltd|co|corp|gen|col|lt|sgt|rev|hon)\.$/i;
const BULLET = /^(?:[-*•▪◦‣]|\d{1,3}[.)]|[a-z][.)])\s/i;
const TERMINAL = /[.!?:;…]["')\]”’]*$/u;
/** Table rows as the parsers render them: "a | b | c" or "Name: Ada; City: Paris". */
const TABLE_ROW = /\s\|\s|^[^:;]{1,80}: [^;]*; [^:;]{1,80}: /;

/**
 * The sentences of a passage, each a verbatim slice of it. Blank lines always separate. A single line break
 * separates too after end punctuation, before a list item, around table rows, and after a short line (a
 * heading); otherwise it is a soft wrap (PDF text keeps its line breaks) and the sentence runs on.
 */
export function splitSentences(text: string): Sentence[] {
  const sentences: Sentence[] = [];
  for (const block of lineBlocks(text)) {
    let pending: Sentence | undefined;
    // ICU ends a sentence at every line feed; soft wraps become spaces (same length, so offsets hold).
    for (const { segment, index } of segmenter.segment(block.text.replace(/\n/g, ' '))) {
      const start = block.start + index;
      pending = { text: text.slice(pending?.start ?? start, start + segment.length), start: pending?.start ?? start };
      if (!ABBREVIATION.test(pending.text.trimEnd())) {
        push(sentences, pending);
        pending = undefined;
      }
    }
    if (pending) push(sentences, pending);
  }
  return sentences;
}

function push(sentences: Sentence[], sentence: Sentence): void {
  const leading = sentence.text.length - sentence.text.trimStart().length;
  const trimmed = sentence.text.trim();
  if (/[\p{L}\p{N}]/u.test(trimmed)) sentences.push({ text: trimmed, start: sentence.start + leading });
}

/** Runs of lines that belong together, as slices of `text`. */
function lineBlocks(text: string): Sentence[] {
  const blocks: Sentence[] = [];
  let blockStart = 0;
  let offset = 0;
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const next = lines[i + 1];
    const end = offset + line.length;
    if (next === undefined || breaksAfter(line, next)) {
      blocks.push({ text: text.slice(blockStart, end), start: blockStart });
      blockStart = end + 1;
    }
    offset = end + 1;
  });
  return blocks.filter((block) => block.text.trim() !== '');
}

function breaksAfter(line: string, next: string): boolean {
  const current = line.trim();
  const following = next.trim();
  if (current === '' || following === '') return true;
  if (TERMINAL.test(current) || BULLET.test(following)) return true;
  if (TABLE_ROW.test(current) || TABLE_ROW.test(following)) return true;
  // A short line without end punctuation, followed by a capital, reads as a heading or a label.
  const short = current.split(/\s+/).length <= 5 && !/[,\-–—]$/.test(current);
  return short && /^[\p{Lu}\p{N}]/u.test(following);
}
