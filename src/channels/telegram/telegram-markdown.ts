/**
 * Answers are written in light Markdown (`**bold**`, `*italic*`, `` `code` ``, fenced blocks, links); Telegram
 * renders MarkdownV2, where every reserved character outside an entity must be escaped or the whole message is
 * refused, and takes at most 4,096 characters a message. This module converts and splits, pure.
 */

/** Telegram's longest message text. */
export const TELEGRAM_MESSAGE_LIMIT = 4096;

/** One message to send: its MarkdownV2 and the same words unformatted (sent when Telegram refuses the markup). */
export interface TelegramPart {
  markdownV2: string;
  plain: string;
}

type Span =
  | { kind: 'text' | 'bold' | 'italic' | 'code'; text: string }
  | { kind: 'pre'; text: string; language: string }
  | { kind: 'link'; text: string; url: string };

// Outside entities, MarkdownV2 refuses these unescaped; the backslash escapes itself.
const RESERVED = /[_*[\]()~`>#+\-=|{}.!\\]/g;
// Inside code and pre only the backquote and the backslash are special; inside a link's URL, `)` and the backslash.
const RESERVED_IN_CODE = /[`\\]/g;
const RESERVED_IN_URL = /[)\\]/g;

const escapeText = (text: string): string => text.replace(RESERVED, '\\$&');
const escapeCode = (text: string): string => text.replace(RESERVED_IN_CODE, '\\$&');
const escapeUrl = (url: string): string => url.replace(RESERVED_IN_URL, '\\$&');

/** The whole answer as one MarkdownV2 text (no length limit: see {@link splitForTelegram}). */
export function toMarkdownV2(text: string): string {
  return parseLightMarkdown(text).map(renderMarkdownV2).join('');
}

/** The answer's words without markup, as a plain message shows them. */
export function toTelegramPlainText(text: string): string {
  return parseLightMarkdown(text).map(renderPlain).join('');
}

/**
 * The answer as messages of at most `limit` characters each, MarkdownV2 and plain. Cuts fall between whole
 * escapes and entities, preferring a paragraph break, then a line break, then a sentence end, then a space; an
 * entity longer than a message (a long code block) is cut into several entities of its kind.
 */
export function splitForTelegram(text: string, limit = TELEGRAM_MESSAGE_LIMIT): TelegramPart[] {
  if (limit < 16) throw new RangeError('limit must leave room for an entity’s markers');
  const pieces = parseLightMarkdown(text).flatMap((span) => toPieces(span, limit));
  const parts: TelegramPart[] = [];
  let current: Piece[] = [];
  let length = 0;
  for (const next of pieces) {
    // A cut may leave a tail that still does not fit with the next piece: cut again.
    while (length + next.markdownV2.length > limit && current.length > 0) {
      const cut = bestCut(current, limit);
      parts.push(join(current.slice(0, cut + 1)));
      current = current.slice(cut + 1);
      length = current.reduce((sum, p) => sum + p.markdownV2.length, 0);
    }
    current.push(next);
    length += next.markdownV2.length;
  }
  parts.push(join(current));
  return parts.filter((part) => part.plain.length > 0);
}

// --- Parsing the answer's light Markdown -------------------------------------------------------------------------

const FENCE = /^```([^\n`]*)\n([\s\S]*?)\n?```[ \t]*$/gm;
const HEADING = /^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/;
// Order matters: code first (nothing inside it is markup), then links (a URL may hold balanced parentheses), bold before italic.
const INLINE =
  /`([^`\n]+)`|\[([^\]\n]+)\]\(((?:https?:\/\/|mailto:|tg:\/\/)(?:[^\s()]|\([^\s()]*\))+)\)|\*\*(?=\S)([^\n]*?\S)\*\*|__(?=\S)([^\n]*?\S)__|(?<![\w*])\*(?=[^\s*])([^\n*]*?[^\s*])\*(?![\w*])|(?<![\w_])_(?=[^\s_])([^\n_]*?[^\s_])_(?![\w_])/g;

function parseLightMarkdown(text: string): Span[] {
  const spans: Span[] = [];
  let last = 0;
  for (const match of text.matchAll(FENCE)) {
    parseBlocks(text.slice(last, match.index), spans);
    const language = (match[1] ?? '').trim();
    spans.push({ kind: 'pre', text: match[2] ?? '', language: /^[\w+#-]{1,32}$/.test(language) ? language : '' });
    last = match.index + match[0].length;
  }
  parseBlocks(text.slice(last), spans);
  return merge(spans);
}

/** Lines outside code blocks: a heading becomes a bold line (Telegram has no headings), the rest inline markup. */
function parseBlocks(text: string, spans: Span[]): void {
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    const heading = HEADING.exec(line);
    if (heading?.[1]) spans.push({ kind: 'bold', text: heading[1].replace(/\*\*|__/g, '') });
    else parseInline(line, spans);
    if (index < lines.length - 1) spans.push({ kind: 'text', text: '\n' });
  });
}

function parseInline(text: string, spans: Span[]): void {
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > last) spans.push({ kind: 'text', text: text.slice(last, match.index) });
    const [, code, linkText, url, bold, boldUnderscore, italic, italicUnderscore] = match;
    if (code !== undefined) spans.push({ kind: 'code', text: code });
    else if (linkText !== undefined && url !== undefined) spans.push({ kind: 'link', text: linkText, url });
    else if (bold !== undefined || boldUnderscore !== undefined) spans.push({ kind: 'bold', text: bold ?? boldUnderscore ?? '' });
    else spans.push({ kind: 'italic', text: italic ?? italicUnderscore ?? '' });
    last = match.index + match[0].length;
  }
  if (last < text.length) spans.push({ kind: 'text', text: text.slice(last) });
}

/**
 * Joins neighbours of one kind: two italics side by side would render `_a__b_`, and MarkdownV2 reads `__` as
 * underline.
 */
function merge(spans: Span[]): Span[] {
  const merged: Span[] = [];
  for (const span of spans) {
    const previous = merged.at(-1);
    if (previous && previous.kind === span.kind && (span.kind === 'text' || span.kind === 'bold' || span.kind === 'italic')) {
      previous.text += span.text;
    } else {
      merged.push({ ...span });
    }
  }
  return merged.filter((span) => span.text.length > 0 || span.kind === 'pre');
}

// --- Rendering ---------------------------------------------------------------------------------------------------

function renderMarkdownV2(span: Span): string {
  switch (span.kind) {
    case 'text':
      return escapeText(span.text);
    case 'bold':
      return `*${escapeText(span.text)}*`;
    case 'italic':
      return `_${escapeText(span.text)}_`;
    case 'code':
      return `\`${escapeCode(span.text)}\``;
    case 'pre':
      return `\`\`\`${span.language}\n${escapeCode(span.text)}\n\`\`\``;
    case 'link':
      return `[${escapeText(span.text)}](${escapeUrl(span.url)})`;
  }
}

function renderPlain(span: Span): string {
  if (span.kind === 'link') return span.text === span.url ? span.url : `${span.text} (${span.url})`;
  return span.text;
}

// --- Splitting ---------------------------------------------------------------------------------------------------

/** The smallest thing a cut may not go through; `rank` is how good a cut right after it is (higher is better). */
interface Piece extends TelegramPart {
  rank: number;
}

/** How good a cut after a piece is: between paragraphs best, inside a word not at all. */
const CUT = { paragraph: 4, line: 3, sentence: 2, word: 1, none: 0 } as const;

function toPieces(span: Span, limit: number): Piece[] {
  if (span.kind === 'text') {
    // Words and the spaces between them; a cut after a space is a cut between words.
    return [...span.text.matchAll(/\s+|\S+/g)].flatMap(([token]) => {
      const rank = !/\s/.test(token) ? CUT.none : /\n\s*\n/.test(token) ? CUT.paragraph : token.includes('\n') ? CUT.line : CUT.word;
      return chunk(token, limit, (slice) => ({ kind: 'text', text: slice })).map((piece) => ({ ...piece, rank }));
    });
  }
  const whole = piece(span, CUT.word);
  if (whole.markdownV2.length <= limit) return [whole];
  // A link longer than a message (a huge URL) is sent as its words.
  if (span.kind === 'link') return toPieces({ kind: 'text', text: renderPlain(span) }, limit);
  if (span.kind !== 'pre') return chunk(span.text, limit, (slice) => ({ ...span, text: slice })).map((p) => ({ ...p, rank: CUT.word }));
  // A code block longer than a message: several code blocks, as many whole lines in each as fit.
  const make = (slice: string): Span => ({ ...span, text: slice });
  const blocks: Piece[] = [];
  let block = '';
  for (const line of span.text.split('\n')) {
    const joined = block === '' ? line : `${block}\n${line}`;
    if (renderMarkdownV2(make(joined)).length <= limit) {
      block = joined;
      continue;
    }
    if (block !== '') blocks.push(piece(make(block), CUT.line));
    const cut = chunk(line, limit, make);
    blocks.push(...cut.slice(0, -1).map((p) => ({ ...p, rank: CUT.line })));
    block = cut.at(-1)?.plain ?? ''; // a code block's plain text is its code
  }
  if (block !== '') blocks.push(piece(make(block), CUT.line));
  return blocks;
}

function piece(span: Span, rank: number): Piece {
  return { markdownV2: renderMarkdownV2(span), plain: renderPlain(span), rank };
}

/** Cuts `text` (at code points, never inside a surrogate pair) into slices whose rendering fits `limit`. */
function chunk(text: string, limit: number, make: (slice: string) => Span): Piece[] {
  const whole = piece(make(text), CUT.none);
  if (whole.markdownV2.length <= limit) return [whole];
  // Escaping is per character, so a slice's length is the markers' plus each character's.
  const markers = renderMarkdownV2(make('')).length;
  const pieces: Piece[] = [];
  let slice = '';
  let length = markers;
  for (const char of text) {
    const cost = renderMarkdownV2(make(char)).length - markers;
    if (length + cost > limit && slice.length > 0) {
      pieces.push(piece(make(slice), CUT.none));
      slice = '';
      length = markers;
    }
    slice += char;
    length += cost;
  }
  if (slice.length > 0) pieces.push(piece(make(slice), CUT.none));
  return pieces;
}

/**
 * Where to end a message: after the best-ranked piece (ties: the latest) among those in its second half, so
 * that a paragraph break near the end beats a space at the end but an early one does not waste a message;
 * with no break in the second half, the best anywhere; with none at all, as late as possible.
 */
function bestCut(pieces: Piece[], limit: number): number {
  const candidates: { index: number; rank: number; late: boolean }[] = [];
  let length = 0;
  pieces.forEach((p, index) => {
    length += p.markdownV2.length;
    const afterSentence = p.rank === CUT.word && /[.!?]["')\]]*$/.test(pieces[index - 1]?.plain ?? '');
    const rank = afterSentence ? CUT.sentence : p.rank;
    if (rank > CUT.none) candidates.push({ index, rank, late: length >= limit / 2 });
  });
  const late = candidates.filter((c) => c.late);
  const pool = late.length > 0 ? late : candidates;
  let best: { index: number; rank: number } = { index: pieces.length - 1, rank: CUT.none };
  for (const candidate of pool) if (candidate.rank >= best.rank) best = candidate;
  return best.index;
}

function join(pieces: Piece[]): TelegramPart {
  // Telegram trims a message's edges; so do we, so that both texts say the same.
  let start = 0;
  let end = pieces.length;
  while (start < end && isBlank(pieces[start])) start++;
  while (end > start && isBlank(pieces[end - 1])) end--;
  const kept = pieces.slice(start, end);
  return { markdownV2: kept.map((p) => p.markdownV2).join(''), plain: kept.map((p) => p.plain).join('') };
}

const isBlank = (p: Piece | undefined): boolean => p !== undefined && p.plain.trim().length === 0 && p.markdownV2.trim().length === 0;
