/**
 * Answers are written in light Markdown (`**bold**`, `*italic*`, `` `code` ``, fenced blocks, links); Slack shows
 * its own `mrkdwn` (`*bold*`, `_italic_`, `~strike~`, `<url|text>`), where `&`, `<` and `>` must be escaped, and
 * cuts a message's text after 4,000 characters or so. People's messages come in the same markup, with mentions
 * and links in angle brackets. This module converts both ways and splits, pure.
 */

/** The length Slack recommends for a message's text (longer ones are cut short in some clients). */
export const SLACK_MESSAGE_LIMIT = 4000;

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
// Inside `<url|text>` the bar and the brackets end the URL: they are given percent-encoded, as a browser would.
const escapeUrl = (url: string): string => url.replace(/&/g, '&amp;').replace(/\|/g, '%7C').replace(/</g, '%3C').replace(/>/g, '%3E');
const escapeLinkText = (text: string): string => escape(text).replace(/\|/g, '¦');

const FENCE = /^```[^\n`]*\n([\s\S]*?)\n?```[ \t]*$/gm;
const HEADING = /^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/;
// Order matters: code first (nothing inside it is markup), then links (a URL may hold balanced parentheses), bold before italic.
const INLINE =
  /`([^`\n]+)`|\[([^\]\n]+)\]\(((?:https?:\/\/|mailto:)(?:[^\s()]|\([^\s()]*\))+)\)|\*\*(?=\S)([^\n]*?\S)\*\*|__(?=\S)([^\n]*?\S)__|~~(?=\S)([^\n]*?\S)~~|(?<![\w*])\*(?=[^\s*])([^\n*]*?[^\s*])\*(?![\w*])|(?<![\w_])_(?=[^\s_])([^\n_]*?[^\s_])_(?![\w_])/g;

/** The answer's light Markdown as Slack mrkdwn (no length limit: see {@link splitForSlack}). */
export function toSlackMrkdwn(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(FENCE)) {
    out += convertLines(text.slice(last, match.index));
    // Slack's code blocks take no language; what is inside is escaped all the same.
    out += `\`\`\`\n${escape(match[1] ?? '')}\n\`\`\``;
    last = match.index + match[0].length;
  }
  return out + convertLines(text.slice(last));
}

function convertLines(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const heading = HEADING.exec(line);
      return heading?.[1] ? `*${escape(heading[1].replace(/\*\*|__/g, ''))}*` : convertInline(line);
    })
    .join('\n');
}

function convertInline(line: string): string {
  let out = '';
  let last = 0;
  for (const match of line.matchAll(INLINE)) {
    out += escape(line.slice(last, match.index));
    const [, code, linkText, url, bold, boldUnderscore, strike, italic, italicUnderscore] = match;
    if (code !== undefined) out += `\`${escape(code)}\``;
    else if (linkText !== undefined && url !== undefined) out += `<${escapeUrl(url)}|${escapeLinkText(linkText)}>`;
    else if (bold !== undefined || boldUnderscore !== undefined) out += `*${escape(bold ?? boldUnderscore ?? '')}*`;
    else if (strike !== undefined) out += `~${escape(strike)}~`;
    else out += `_${escape(italic ?? italicUnderscore ?? '')}_`;
    last = match.index + match[0].length;
  }
  return out + escape(line.slice(last));
}

/**
 * The answer as mrkdwn messages of at most `limit` characters each. Cuts fall between lines, preferring a
 * paragraph break in a message's second half; a line longer than a message is cut between words, never
 * inside a link or an escape. A code block cut in two is closed and opened again, so both halves show as code.
 */
export function splitForSlack(text: string, limit = SLACK_MESSAGE_LIMIT): string[] {
  if (limit < 32) throw new RangeError('limit must leave room for a code block’s markers');
  const parts: string[] = [];
  let lines: string[] = [];
  const length = () => lines.reduce((sum, line) => sum + line.length + 1, -1);
  const flush = (count: number) => {
    const taken = lines.slice(0, count);
    lines = lines.slice(count);
    // A cut inside a code block: this part closes it, the next opens it again.
    const open = taken.filter((line) => line.startsWith('```')).length % 2 === 1;
    parts.push((open ? [...taken, '```'] : taken).join('\n'));
    if (open) lines.unshift('```');
  };
  // Room is kept for a code block's markers: a piece fits a message with an opening and a closing one.
  for (const line of toSlackMrkdwn(text).split('\n')) {
    for (const piece of cutLine(line, limit - 8)) {
      while (lines.length > 0 && length() + 1 + piece.length > limit - 4) flush(bestCut(lines, limit));
      lines.push(piece);
    }
  }
  if (lines.length > 0) flush(lines.length);
  return parts.map((part) => part.trim()).filter((part) => part.length > 0);
}

/** How many lines go in the next message: up to the last blank line in its second half, else all of them. */
function bestCut(lines: string[], limit: number): number {
  let at = 0;
  let cut = lines.length;
  lines.forEach((line, index) => {
    at += line.length + 1;
    if (line.trim() === '' && at >= limit / 2 && index > 0) cut = index + 1;
  });
  return cut;
}

/** A line cut to `max` characters a piece, at the last space before the cut that is not inside `<…>` or an escape. */
function cutLine(line: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = line;
  while (rest.length > max) {
    let cut = -1;
    let inside = false;
    for (let i = 0; i < max; i++) {
      const char = rest[i];
      if (char === '<') inside = true;
      else if (char === '>') inside = false;
      else if (char === ' ' && !inside) cut = i;
    }
    if (cut <= 0) cut = safeHardCut(rest, max);
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^ /, '');
  }
  pieces.push(rest);
  return pieces;
}

/** Where to cut a line with no space: before an escape or a surrogate pair it would split. */
function safeHardCut(text: string, max: number): number {
  let cut = max;
  const entity = text.lastIndexOf('&', cut);
  if (entity >= 0 && entity > cut - 5 && text.indexOf(';', entity) >= cut) cut = entity;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return Math.max(cut, 1);
}

/**
 * A person's message as plain words: mentions `<@U123>` as `@U123` (or dropped, for the bot's own), channels
 * `<#C123|general>` as `#general`, links `<url|text>` as their text and URL, escapes undone.
 */
export function fromSlackText(text: string, botUserId?: string): string {
  return text
    .replace(/<([^<>]+)>/g, (_whole, inner: string) => {
      const [target = '', label] = inner.split('|', 2);
      if (target.startsWith('@')) return target.slice(1) === botUserId ? '' : label ? `@${label}` : target;
      if (target.startsWith('#')) return label ? `#${label}` : target;
      if (target.startsWith('!')) return label ?? `@${target.slice(1).split('^')[0]}`;
      return label && label !== target ? `${label} (${target})` : target;
    })
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}
