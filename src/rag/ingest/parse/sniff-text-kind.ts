import type { DocumentKind } from '../document.js';
import { detectDelimiter } from './detect-delimiter.js';

export type TextKind = Extract<DocumentKind, 'html' | 'json' | 'csv' | 'markdown' | 'txt'>;

const HTML_ROOT = /^(?:<!doctype\s+html|<(?:html|head|body)\b)/i;
const HTML_FRAGMENT = /^<(?:div|p|h[1-6]|table|ul|ol|section|article|main|span|a|meta|link|title|style|script|header|nav|form|img|br)[\s>/]/i;
const XML_DOCUMENT = /^(?:<\?xml|<!doctype|<svg\b|<rss\b|<feed\b)/i;
const JSON_START = /^(?:\{\s*(?:"|\}$)|\[\s*(?:\{\s*"|\[|\]$))/;

const STRONG_MARKDOWN = [
  /^ {0,3}(?:```|~~~)/m, // fenced code
  /^ {0,3}#{1,6}[ \t]+\S/m, // ATX heading
  /^\s*\|?\s*:?-{3,}:?\s*\|/m, // table delimiter row
];
const WEAK_MARKDOWN = [
  /\[[^\]\n]+\]\([^)\s]+\)/, // link
  /(\*\*|__)\S[^\n]*?\S\1/, // strong emphasis
  /`[^`\n]+`/, // code span
  /^ {0,3}>[ \t]?\S/m, // block quote
  /^ {0,3}[-*+][ \t]+\S/m, // bullet
  /^ {0,3}\S[^\n]*\n {0,3}(?:=+|-+)[ \t]*$/m, // setext heading
];

// Only where the content alone cannot decide (plain text that could be read as something richer) does the name.
const NAMED_TEXT_KINDS: Readonly<Record<string, TextKind>> = {
  md: 'markdown',
  markdown: 'markdown',
  mdown: 'markdown',
  mkd: 'markdown',
  mdx: 'markdown',
  csv: 'csv',
  tsv: 'csv',
  tab: 'csv',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  txt: 'txt',
  text: 'txt',
};

/**
 * Which text kind a document's opening is: HTML by its root element, JSON by its first token, CSV by a
 * delimiter that splits every line alike, Markdown by its block syntax, otherwise plain text. Undefined
 * for XML that is not HTML (SVG, feeds), which Parley does not read.
 *
 * The name (its extension) breaks ties only: plain text named .md is Markdown, a loose table named .csv
 * is CSV; a name never overrides what the content clearly is.
 */
export function sniffTextKind(text: string, extension: string | undefined, complete: boolean): TextKind | undefined {
  const start = skipPreamble(text);
  const named = extension ? NAMED_TEXT_KINDS[extension] : undefined;
  if (start === '') return named ?? 'txt';
  if (isJson(start, text, complete)) return 'json';
  if (HTML_ROOT.test(start)) return 'html';
  if (XML_DOCUMENT.test(start)) return undefined;
  if (STRONG_MARKDOWN.some((pattern) => pattern.test(text))) return 'markdown';
  if (HTML_FRAGMENT.test(start)) return 'html';
  if (isCsv(text, named === 'csv')) return 'csv';
  const weakSignals = WEAK_MARKDOWN.filter((pattern) => pattern.test(text)).length;
  if (named && named !== 'csv') return named;
  return weakSignals >= 2 ? 'markdown' : 'txt';
}

// Leading whitespace, XML declarations and comments say nothing about what follows.
function skipPreamble(text: string): string {
  return text.replace(/^(?:\s+|<\?xml[^>]*\?>|<!--[\s\S]*?-->)*/, '');
}

function isJson(start: string, text: string, complete: boolean): boolean {
  if (!/^[[{]/.test(start)) return false;
  if (complete && parses(text)) return true;
  // A broken or very large JSON file still opens like JSON; parsing then explains what is wrong with it.
  return JSON_START.test(start.slice(0, 200).trimEnd());
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function isCsv(text: string, namedCsv: boolean): boolean {
  const guess = detectDelimiter(text);
  if (!guess) return false;
  if (namedCsv) return guess.consistency >= 0.8;
  const enoughRecords = guess.records >= 3;
  const consistent = guess.records < 10 ? guess.consistency === 1 : guess.consistency >= 0.9;
  return enoughRecords && consistent && !looksLikeProse(text, guess.delimiter);
}

// Prose can split evenly too: one comma per line, or every line indented with a tab. But prose has blank
// lines between its paragraphs, and indentation splits into mostly empty fields; tables have neither.
function looksLikeProse(text: string, delimiter: string): boolean {
  const lines = text.trimEnd().split('\n').slice(0, 100);
  const filled = lines.filter((line) => line.trim() !== '');
  const cells = filled.flatMap((line) => line.split(delimiter));
  const emptyCells = cells.filter((cell) => cell.trim() === '').length;
  return (lines.length - filled.length) * 5 > lines.length || emptyCells * 2 >= cells.length;
}
