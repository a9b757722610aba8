// Tabs, line feeds and carriage returns are handled separately; every other C0/C1 control, and stray BOMs, go.
// eslint-disable-next-line no-control-regex -- removing control characters is the purpose
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000E-\u001F\u007F-\u009F\uFEFF\uFFFE\uFFFF]/g;
const HORIZONTAL_SPACE = /[ \t\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]+/g;

/** Unix line ends, no control characters, NFC; keeps spacing exactly (for code and other verbatim text). */
export function cleanCharacters(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/\f/g, '\n\n').replace(CONTROL_CHARACTERS, '').normalize('NFC');
}

/**
 * Prose as the chunker wants it: runs of spaces collapsed, lines trimmed, at most one blank line
 * between paragraphs; the blank lines themselves ("\n\n") are kept because chunks split there.
 */
export function normalizeText(text: string): string {
  return cleanCharacters(text)
    .split('\n')
    .map((line) => line.replace(HORIZONTAL_SPACE, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** All whitespace, line breaks included, as single spaces: for table cells, headings and inline HTML. */
export function collapseWhitespace(text: string): string {
  return cleanCharacters(text).replace(/\s+/g, ' ').trim();
}
