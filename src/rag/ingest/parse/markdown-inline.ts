const CODE_SPAN = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;
const ESCAPABLE = /\\([\\`*_{}[\]()#+\-.!|<>~])/g;
// Escaped characters are parked in the private use area while emphasis is stripped, so "\*" stays a star.
const PARKED = /[\uF000-\uF07F]/g;
const PARK_OFFSET = 0xf000;

const REPLACEMENTS: ReadonlyArray<[RegExp, string]> = [
  [/<!--[\s\S]*?-->/g, ''],
  [/!\[([^\]]*)\]\([^)]*\)/g, '$1'],
  [/\[([^\]]+)\]\((?:[^()\s]|\([^)]*\))*(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g, '$1'],
  [/\[([^\]]+)\]\[[^\]]*\]/g, '$1'],
  [/<((?:https?|mailto|ftp):[^>\s]+)>/g, '$1'],
  [/<\/?[A-Za-z][\w-]*(?:\s[^<>]*)?\/?>/g, ''],
  [/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2'],
  [/(?<![\w*])\*(?=[^\s*])([\s\S]*?[^\s*])\*(?![\w*])/g, '$1'],
  [/(?<![\w_])_(?=[^\s_])([\s\S]*?[^\s_])_(?![\w_])/g, '$1'],
  [/~~(?=\S)([\s\S]*?\S)~~/g, '$1'],
];

/**
 * Markdown inline syntax removed so text reads naturally: links and images become their text, emphasis
 * markers and inline HTML go, code spans keep their content exactly.
 */
export function plainInline(text: string): string {
  const parts = text.split(CODE_SPAN);
  // split() with two groups yields [text, ticks, code, text, ticks, code, ...].
  return parts
    .map((part, i) => {
      if (i % 3 === 1) return '';
      return i % 3 === 2 ? part : stripSyntax(part);
    })
    .join('');
}

function stripSyntax(text: string): string {
  let result = text.replace(ESCAPABLE, (_, char: string) => String.fromCharCode(PARK_OFFSET + char.charCodeAt(0)));
  for (const [pattern, replacement] of REPLACEMENTS) result = result.replace(pattern, replacement);
  return result.replace(PARKED, (char) => String.fromCharCode(char.charCodeAt(0) - PARK_OFFSET));
}
