/**
 * The context block: how retrieved passages travel inside a prompt. The prompt assembler writes it and
 * the built-in local answerer reads it back, so both sides share this one definition. It is also what a
 * remote model sees, so it is plain, readable text:
 *
 * ```text
 * Passages from the knowledge base (cite them by number, e.g. [1]):
 * <context>
 * [1] (source: memo.pdf, page 1)
 * There were 20,000 bottles of water, 10,000 blankets, and 200 laptops delivered on January 23, 2023.
 *
 * [2] (source: ducks.txt)
 * Ducks are waterfowl.
 * </context>
 * ```
 *
 * - The block opens with a line that is exactly {@link CONTEXT_START} and closes with a line that is
 *   exactly {@link CONTEXT_END}; the {@link CONTEXT_HEADER} line before it is optional for readers.
 * - Each passage starts with a label line `[n] (source: NAME)` or `[n] (source: NAME, page P)`, n counting
 *   from 1, followed by the passage text; passages are separated by a blank line.
 * - With no passages the block holds the single line {@link NO_PASSAGES}.
 * - Untrusted text (passages, queries, history) is run through {@link neutralizeMarkers}, so a line of it
 *   can never read as a marker or a label.
 */

export const CONTEXT_HEADER = 'Passages from the knowledge base (cite them by number, e.g. [1]):';
export const CONTEXT_START = '<context>';
export const CONTEXT_END = '</context>';
export const NO_PASSAGES = '(no relevant passages were found)';

/**
 * Provider options key under which the assembler attaches the bare query to the final user message
 * (`providerOptions.parley.query`). Remote providers ignore keys that are not theirs; the local answerer
 * reads it so a user prompt template's own words are not mistaken for the question.
 */
export const PARLEY_PROVIDER_KEY = 'parley';

/** One passage of a context block. */
export interface ContextBlockPassage {
  text: string;
  source: string;
  pageNumber?: number | null;
}

/** A passage read back from a context block; `number` is its label. */
export interface LabelledPassage {
  number: number;
  source: string;
  pageNumber: number | null;
  text: string;
}

/** A context block found in a text, with the text around it. */
export interface ParsedContextBlock {
  passages: LabelledPassage[];
  /** The text before the block (header line removed) and after it, each trimmed. */
  before: string;
  after: string;
}

// Lazy name, then an optional page: "a (copy).pdf, page 3" reads as name "a (copy).pdf", page 3.
const LABEL = /^\[(\d+)\] \(source: (.*?)(?:, page (\d+))?\)$/;

/** The label line of passage `number` (1-based). */
export function passageLabel(number: number, source: string, pageNumber?: number | null): string {
  const name = source.replace(/\s+/g, ' ').trim() || 'unknown';
  const page = pageNumber === null || pageNumber === undefined ? '' : `, page ${pageNumber}`;
  return `[${number}] (source: ${name}${page})`;
}

/** One passage as it appears in the block: its label line, then its text. */
export function formatPassage(number: number, passage: ContextBlockPassage): string {
  return `${passageLabel(number, passage.source, passage.pageNumber)}\n${neutralizeMarkers(passage.text.trim())}`;
}

/** The whole block, header line included, passages numbered from 1 in the order given. */
export function formatContextBlock(passages: readonly ContextBlockPassage[]): string {
  const body = passages.length === 0 ? NO_PASSAGES : passages.map((p, i) => formatPassage(i + 1, p)).join('\n\n');
  return `${CONTEXT_HEADER}\n${CONTEXT_START}\n${body}\n${CONTEXT_END}`;
}

/**
 * Indents, by one space, every line that would otherwise read as a marker or a passage label. Invisible to
 * a remote model; to the local answerer it means a pasted "context block" in a question stays a question.
 */
export function neutralizeMarkers(text: string): string {
  return text
    .split('\n')
    .map((line) => (isStructural(line) ? ` ${line}` : line))
    .join('\n');
}

function isStructural(line: string): boolean {
  return line === CONTEXT_START || line === CONTEXT_END || LABEL.test(line);
}

/** The first complete context block in `text`, or `null` when there is none. */
export function parseContextBlock(text: string): ParsedContextBlock | null {
  const lines = text.split('\n');
  const start = lines.indexOf(CONTEXT_START);
  if (start < 0) return null;
  const end = lines.indexOf(CONTEXT_END, start + 1);
  if (end < 0) return null;

  const passages: LabelledPassage[] = [];
  let current: { label: LabelledPassage; lines: string[] } | undefined;
  const flush = () => {
    if (current) passages.push({ ...current.label, text: current.lines.join('\n').trim() });
  };
  for (const line of lines.slice(start + 1, end)) {
    const label = LABEL.exec(line);
    if (label) {
      flush();
      const page = label[3] === undefined ? null : Number(label[3]);
      current = { label: { number: Number(label[1]), source: label[2] ?? '', pageNumber: page, text: '' }, lines: [] };
    } else {
      current?.lines.push(line);
    }
  }
  flush();

  const beforeLines = lines.slice(0, start);
  if (beforeLines.at(-1) === CONTEXT_HEADER) beforeLines.pop();
  return {
    passages: passages.filter((p) => p.text.length > 0),
    before: beforeLines.join('\n').trim(),
    after: lines
      .slice(end + 1)
      .join('\n')
      .trim(),
  };
}
