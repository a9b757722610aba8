/**
 * A citation as the context block asks for it: `[2]`, or several numbers in one pair of brackets, `[2, 3]`.
 * Spaces only, no line breaks: a citation never spans lines.
 */
const CITATION = /\[(\d{1,4}(?: *, *\d{1,4})*)\]/g;
/** The end of the text so far may still become a citation: `[`, `[2`, `[2, `. */
const OPEN_CITATION = /\[[\d, ]{0,16}$/;
/** A line of its own that opens a list of sources, e.g. `Sources: a.pdf`, `**References:**`, `## Sources`. */
const SOURCES_HEADING = /\n[ \t>#*_-]*(?:sources|references)[ \t*_]*(?::|\n)/i;
const HEADING_WORDS = ['sources', 'references'];

/**
 * Rewrites an answer, as it streams, so that its citations match the list of sources shown beside it. The
 * prompt numbers the passages `[1]…[n]` (see context-block.ts); the answer cites some of them, in any order.
 * - Cited passages are renumbered 1..k in the order of their first citation, and the text's markers
 *   rewritten to match: "[3] … [4] … [3]" becomes "[1] … [2] … [1]"; {@link cited} maps back.
 * - A number that names no passage (`[0]`, `[2024]`) is not a citation and stays as written.
 * - The answer's own list of sources is cut: a line that opens with "Sources" or "References" (and a colon,
 *   or nothing else) after the answer, with everything after it and the blank space before it. Sources are
 *   shown from {@link cited}, as a list, by whoever shows the answer.
 *
 * Text is handed on as soon as it is settled: a trailing `[2` waits for its bracket, and a line break waits
 * for the line after it to show it does not open a list of sources. So the deltas a client sees already carry
 * the final numbers, and the streamed text, the stored text and the final answer are the same.
 */
export class AnswerCitations {
  readonly #passages: number;
  /** Prompt numbers of the cited passages; the passage cited as `[i + 1]` in the rewritten text is `#cited[i]`. */
  readonly #cited: number[] = [];
  #raw = '';
  /** How much of the raw text has been rewritten and handed on. */
  #settled = 0;
  /** Where the answer's own list of sources starts; nothing from there on is handed on. */
  #cut: number | undefined;
  #text = '';

  /** `passages`: how many passages the prompt numbered. */
  constructor(passages: number) {
    this.#passages = passages;
  }

  /** Prompt numbers (1-based) of the passages cited, in the order of the rewritten numbers. */
  get cited(): readonly number[] {
    return this.#cited;
  }

  /** The rewritten text handed on so far. */
  get text(): string {
    return this.#text;
  }

  /** Takes the next piece of the model's text; answers the rewritten text now settled ('' while it waits). */
  add(delta: string): string {
    this.#raw += delta;
    if (this.#cut !== undefined) return '';
    const pending = this.#raw.slice(this.#settled);
    const heading = SOURCES_HEADING.exec(pending);
    // A list of sources follows an answer: a text that opens with such a line is left as it is.
    if (heading !== null && `${this.#text}${pending.slice(0, heading.index)}`.trim() !== '') {
      this.#cut = this.#settled + startOfBlank(pending, heading.index);
      return this.#settle(this.#cut);
    }
    return this.#settle(this.#settled + heldFrom(pending));
  }

  /** The model has finished: answers the rewritten rest of the text. */
  end(): string {
    return this.#settle(this.#cut ?? this.#raw.length);
  }

  #settle(until: number): string {
    const settled = this.#raw.slice(this.#settled, until).replace(CITATION, (citation) => this.#renumber(citation));
    this.#settled = until;
    this.#text += settled;
    return settled;
  }

  #renumber(citation: string): string {
    return citation.replace(/\d+/g, (digits) => {
      const number = Number(digits);
      if (number < 1 || number > this.#passages) return digits;
      const known = this.#cited.indexOf(number);
      if (known >= 0) return String(known + 1);
      this.#cited.push(number);
      return String(this.#cited.length);
    });
  }
}

/** Where the text that cannot be handed on yet starts in `pending` (its length when all of it can). */
function heldFrom(pending: string): number {
  let held = pending.length;
  const open = OPEN_CITATION.exec(pending);
  if (open !== null) held = open.index;
  const lineStart = pending.lastIndexOf('\n');
  if (lineStart >= 0 && mayOpenSources(pending.slice(lineStart + 1))) held = Math.min(held, startOfBlank(pending, lineStart));
  return held;
}

/** Whether a line being written may still turn out to open a list of sources. */
function mayOpenSources(line: string): boolean {
  const rest = line.replace(/^[ \t>#*_-]*/, '').toLowerCase();
  const word = /^[a-z]*/.exec(rest)?.[0] ?? '';
  const after = rest.slice(word.length);
  return HEADING_WORDS.some((heading) => (after === '' ? heading.startsWith(word) : heading === word && /^[ \t*_]*$/.test(after)));
}

/** The start of the blank space that ends at `index`. */
function startOfBlank(text: string, index: number): number {
  let start = index;
  while (start > 0 && /\s/.test(text.charAt(start - 1))) start--;
  return start;
}
