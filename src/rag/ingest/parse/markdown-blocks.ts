import { plainInline } from './markdown-inline.js';
import type { TextBlock } from './text-block.js';

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]|$)/;
/** A closing run of "#", alone or after a space; matched once the line's end is trimmed. */
const ATX_CLOSING = /(?:^|[ \t])#+$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const TABLE_DELIMITER_ROW = /^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$/;
const LINK_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*\S+/;

export interface MarkdownOutline {
  blocks: TextBlock[];
  /** The front matter's title, else the first level-1 heading. */
  title?: string;
}

/**
 * Markdown's block structure: headings (ATX and setext), paragraphs, and fenced code kept exactly as
 * written; nothing inside a fence is read as a heading or as HTML.
 */
export function markdownBlocks(markdown: string): MarkdownOutline {
  const lines = markdown.split('\n');
  const { title: frontTitle, bodyStart } = frontMatter(lines);
  const reader = new BlockReader();
  for (const line of lines.slice(bodyStart)) reader.read(line);
  reader.end();
  const firstH1 = reader.blocks.find((block) => block.kind === 'heading' && block.level === 1)?.text;
  return { blocks: reader.blocks, title: frontTitle ?? firstH1 };
}

class BlockReader {
  readonly blocks: TextBlock[] = [];
  private paragraph: string[] = [];
  private fence: { marker: string; lines: string[] } | undefined;

  read(line: string): void {
    if (this.fence) return this.readFenced(line);
    const marker = fenceMarker(line);
    if (marker) {
      this.flush();
      this.fence = { marker, lines: [] };
      return;
    }
    const heading = ATX_HEADING.exec(line);
    if (heading?.[1]) return this.heading(heading[1].length, atxHeadingText(line.slice(heading[0].length)));
    const underline = SETEXT_UNDERLINE.exec(line);
    if (underline?.[1] && this.paragraph.length > 0) {
      const text = this.paragraph.join(' ');
      this.paragraph = [];
      return this.heading(underline[1].startsWith('=') ? 1 : 2, text);
    }
    if (line.trim() === '' || THEMATIC_BREAK.test(line)) return this.flush();
    if ((TABLE_DELIMITER_ROW.test(line) && line.includes('|')) || LINK_DEFINITION.test(line)) return;
    this.paragraph.push(line);
  }

  end(): void {
    // An unclosed fence runs to the end of the document.
    if (this.fence) this.blocks.push({ kind: 'verbatim', text: this.fence.lines.join('\n') });
    this.fence = undefined;
    this.flush();
  }

  private readFenced(line: string): void {
    const fence = this.fence;
    if (!fence) return;
    const close = line.trim();
    if (close.length >= fence.marker.length && close === fence.marker[0]?.repeat(close.length) && /^ {0,3}\S/.test(line)) {
      this.blocks.push({ kind: 'verbatim', text: fence.lines.join('\n') });
      this.fence = undefined;
    } else fence.lines.push(line);
  }

  private heading(level: number, text: string): void {
    this.flush();
    this.blocks.push({ kind: 'heading', level, text: plainInline(text) });
  }

  private flush(): void {
    if (this.paragraph.length > 0) this.blocks.push({ kind: 'paragraph', text: this.paragraph.map(plainLine).join('\n') });
    this.paragraph = [];
  }
}

/**
 * The text of an ATX heading line after its "#"s, without the optional closing "#"s. Done in steps rather than
 * one pattern: a lazy heading text before optional trailing spaces backtracks over a long run of spaces at
 * every character (quadratic).
 */
function atxHeadingText(rest: string): string {
  const trimmed = rest.trimEnd();
  const closing = ATX_CLOSING.exec(trimmed);
  return (closing ? trimmed.slice(0, closing.index) : trimmed).trim();
}

// A backtick fence's info string may not contain backticks (that line is inline code instead).
function fenceMarker(line: string): string | undefined {
  const [, marker, info = ''] = FENCE_OPEN.exec(line) ?? [];
  return marker && !(marker.startsWith('`') && info.includes('`')) ? marker : undefined;
}

/** One line of a paragraph without its block markers: quotes, bullets and table pipes. */
function plainLine(line: string): string {
  const unquoted = line.replace(/^(?: {0,3}>[ \t]?)+/, '');
  const bulleted = unquoted.replace(/^(\s*)[*+-][ \t]+(?:\[[ xX]\][ \t]+)?/, '$1- ');
  const tableRow = /^\s*\|(.*)\|\s*$/.exec(bulleted);
  if (tableRow?.[1] !== undefined) return tableCells(tableRow[1]).map(plainInline).join(' | ');
  return plainInline(bulleted);
}

function tableCells(row: string): string[] {
  return row.split(/(?<!\\)\|/).map((cell) => cell.trim());
}

// YAML front matter between "---" lines is metadata, not text; its title is worth keeping.
function frontMatter(lines: readonly string[]): { title?: string; bodyStart: number } {
  if (lines[0]?.trim() !== '---') return { bodyStart: 0 };
  const end = lines.findIndex((line, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(line));
  if (end < 0) return { bodyStart: 0 };
  const titleLine = lines.slice(1, end).find((line) => /^title\s*:/i.test(line));
  const title = titleLine
    ?.replace(/^title\s*:\s*/i, '')
    .replace(/^(["'])(.*)\1$/, '$2')
    .trim();
  return { title: title || undefined, bodyStart: end + 1 };
}
