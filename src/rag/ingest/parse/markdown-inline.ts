const BACKTICK_RUN = /`+/g;
const ESCAPABLE = /\\([\\`*_{}[\]()#+\-.!|<>~])/g;
// Escaped characters are parked in the private use area while emphasis is stripped, so "\*" stays a star.
const PARKED = /[\uF000-\uF07F]/g;
const PARK_OFFSET = 0xf000;

/**
 * Each pattern stops reading where another match of its own could start (a link's text and address never
 * hold "[", emphasis never holds its own marker), so an attempt that fails has read only up to the next
 * one: a line costs time in proportion to its length however many unclosed "[" or "*" it holds.
 */
const REPLACEMENTS: ReadonlyArray<[RegExp, string]> = [
  [/!\[([^[\]]*)\](?:\([^()[\]]*\)|\[[^[\]]*\])/g, '$1'],
  [/\[([^[\]]+)\]\((?:<[^<>]*>|(?:[^()[\]\s]|\([^()[\]]*\))*)(?:\s+(?:"[^"[\]]*"|'[^'[\]]*'))?\s*\)/g, '$1'],
  [/\[([^[\]]+)\]\[[^[\]]*\]/g, '$1'],
  [/<((?:https?|mailto|ftp):[^<>\s]+)>/g, '$1'],
  [/<\/?[A-Za-z][\w-]*(?:\s[^<>]*)?\/?>/g, ''],
  [/(\*\*|__)(?=\S)((?:(?!\1)[\s\S])*?\S)\1/g, '$2'],
  [/(?<![\w*])\*(?=[^\s*])([^*]*?[^\s*])\*(?![\w*])/g, '$1'],
  [/(?<![\w_])_(?=[^\s_])([^_]*?[^\s_])_(?![\w_])/g, '$1'],
  [/~~(?=\S)((?:(?!~~)[\s\S])*?\S)~~/g, '$1'],
];

/**
 * Markdown inline syntax removed so text reads naturally: links and images become their text, emphasis
 * markers and inline HTML go, code spans keep their content exactly. Linear in the length of `text`.
 */
export function plainInline(text: string): string {
  // [text, code, text, code, ..., text]
  return splitCodeSpans(text)
    .map((part, i) => (i % 2 === 1 ? part : stripSyntax(part)))
    .join('');
}

/**
 * `text` cut at its code spans, as CommonMark finds them: a run of backticks opens one, and the next run of
 * the same length closes it; a run without such a partner is plain text. Each run's partner is found once,
 * from a right-to-left pass, so an unclosed run costs nothing more.
 */
function splitCodeSpans(text: string): string[] {
  const runs = Array.from(text.matchAll(BACKTICK_RUN), (match) => ({ start: match.index, end: match.index + match[0].length }));
  const partner: number[] = [];
  const nextOfLength = new Map<number, number>();
  for (let i = runs.length - 1; i >= 0; i--) {
    const length = runs[i]!.end - runs[i]!.start;
    partner[i] = nextOfLength.get(length) ?? -1;
    nextOfLength.set(length, i);
  }
  const parts: string[] = [];
  let textStart = 0;
  for (let i = 0; i < runs.length; i++) {
    const close = partner[i]!;
    if (close < 0) continue;
    parts.push(text.slice(textStart, runs[i]!.start), text.slice(runs[i]!.end, runs[close]!.start));
    textStart = runs[close]!.end;
    i = close;
  }
  parts.push(text.slice(textStart));
  return parts;
}

function stripSyntax(text: string): string {
  let result = withoutComments(text.replace(ESCAPABLE, (_, char: string) => String.fromCharCode(PARK_OFFSET + char.charCodeAt(0))));
  for (const [pattern, replacement] of REPLACEMENTS) result = result.replace(pattern, replacement);
  return result.replace(PARKED, (char) => String.fromCharCode(char.charCodeAt(0) - PARK_OFFSET));
}

/** HTML comments removed; once one is left open, so is every later one, so the search stops there. */
function withoutComments(text: string): string {
  let result = '';
  let from = 0;
  for (let open = text.indexOf('<!--'); open >= 0; open = text.indexOf('<!--', from)) {
    const close = text.indexOf('-->', open + 4);
    if (close < 0) break;
    result += text.slice(from, open);
    from = close + 3;
  }
  return result + text.slice(from);
}
