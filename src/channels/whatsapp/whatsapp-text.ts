/**
 * Answers are written in light Markdown (`**bold**`, `*italic*`, headings, links); WhatsApp shows its own
 * marks (`*bold*`, `_italic_`, `~strike~`, ``` ```code``` ```) and takes at most 4,096 characters a text
 * message. This module converts and splits, pure.
 */

/** WhatsApp's longest text message body. */
export const WHATSAPP_TEXT_LIMIT = 4096;

const FENCE = /```[^\n`]*\n([\s\S]*?)\n?```/g;
const HEADING = /^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm;
const LINK = /\[([^\]\n]+)\]\((\S+?)\)/g;
const BOLD = /\*\*(?=\S)([^\n]*?\S)\*\*|__(?=\S)([^\n]*?\S)__/g;
const ITALIC = /(?<![\w*])\*(?=[^\s*])([^\n*]*?[^\s*])\*(?![\w*])/g;
// Stands for a bold mark while italics are converted (a private-use character nobody types).
const BOLD_MARK = '\uE000';

/** The answer in WhatsApp's formatting; code blocks are kept as WhatsApp's monospace blocks, untouched inside. */
export function toWhatsAppText(text: string): string {
  const parts: string[] = [];
  let last = 0;
  for (const match of text.matchAll(FENCE)) {
    parts.push(convertProse(text.slice(last, match.index)), `\`\`\`${match[1] ?? ''}\`\`\``);
    last = match.index + match[0].length;
  }
  parts.push(convertProse(text.slice(last)));
  return parts.join('').trim();
}

function convertProse(text: string): string {
  return text
    .replace(HEADING, (_, heading: string) => `${BOLD_MARK}${heading.replace(/\*\*|__/g, '')}${BOLD_MARK}`)
    .replace(LINK, (_, label: string, url: string) => (label === url ? url : `${label} (${url})`))
    .replace(BOLD, (_, star: string | undefined, underscore: string | undefined) => `${BOLD_MARK}${star ?? underscore ?? ''}${BOLD_MARK}`)
    .replace(ITALIC, (_, italic: string) => `_${italic}_`)
    .replaceAll(BOLD_MARK, '*');
}

/**
 * The text as messages of at most `limit` characters (code points kept whole), cut at the last paragraph
 * break, else line break, else space in the second half of each message; without any, where the limit falls.
 */
export function splitForWhatsApp(text: string, limit = WHATSAPP_TEXT_LIMIT): string[] {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length > limit) {
    let window = rest.slice(0, limit);
    // Never between the halves of a surrogate pair.
    if (/[\uD800-\uDBFF]$/.test(window)) window = window.slice(0, -1);
    const cut = [window.lastIndexOf('\n\n'), window.lastIndexOf('\n'), window.lastIndexOf(' ')].find((at) => at >= limit / 2) ?? window.length;
    parts.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest.length > 0) parts.push(rest);
  return parts;
}
