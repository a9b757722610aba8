import { collapseWhitespace } from './normalize-text.js';
import { tableRowText } from './render-rows.js';
import type { TextBlock } from './text-block.js';

/**
 * The few DOM members the walk needs. linkedom's documents satisfy it; naming them here keeps the DOM
 * library's types (and the browser lib they assume) out of the code.
 */
export interface DomNode {
  readonly nodeType: number;
  readonly nodeName: string;
  readonly textContent: string | null;
  readonly childNodes: ArrayLike<DomNode>;
  getAttribute?(name: string): string | null;
}

const ELEMENT = 1;
const TEXT = 3;
const LINE_BREAK = '\u2028';

const SKIPPED = new Set([
  'script', 'style', 'noscript', 'template', 'head', 'svg', 'canvas', 'iframe', 'object', 'embed', 'img',
  'picture', 'video', 'audio', 'nav', 'header', 'footer', 'aside', 'form', 'button', 'select', 'textarea', 'menu',
]);

const BLOCKS = new Set([
  'p', 'div', 'section', 'article', 'main', 'blockquote', 'figure', 'figcaption', 'caption', 'dl', 'dt', 'dd',
  'address', 'details', 'summary', 'hr', 'fieldset', 'center', 'body', 'html',
]);

/** Headings, paragraphs, list items, tables and preformatted text of an HTML tree, in document order. */
export function blocksFromHtml(root: DomNode): TextBlock[] {
  const collector = new BlockCollector();
  collector.visit(root);
  collector.flush();
  return collector.blocks;
}

class BlockCollector {
  readonly blocks: TextBlock[] = [];
  private inline: string[] = [];
  private prefix = '';

  visit(node: DomNode): void {
    if (node.nodeType === TEXT) this.inline.push(node.textContent ?? '');
    if (node.nodeType !== ELEMENT || isHidden(node)) return;
    const name = node.nodeName.toLowerCase();
    if (SKIPPED.has(name)) return;
    if (/^h[1-6]$/.test(name)) return this.block({ kind: 'heading', level: Number(name[1]), text: inlineText(node) });
    if (name === 'pre') return this.block({ kind: 'verbatim', text: node.textContent ?? '' });
    if (name === 'table') return this.block({ kind: 'paragraph', text: tableText(node) });
    if (name === 'ul' || name === 'ol') return this.list(node, name === 'ol');
    if (name === 'br') {
      this.inline.push(LINE_BREAK);
      return;
    }
    const isBlock = BLOCKS.has(name) || name === 'li' || name === 'tr';
    if (isBlock) this.flush();
    this.visitChildren(node);
    if (isBlock) this.flush();
  }

  flush(): void {
    const lines = this.inline.join('').split(LINE_BREAK).map(collapseWhitespace).filter(Boolean);
    this.inline = [];
    if (lines.length === 0) return;
    this.blocks.push({ kind: 'paragraph', text: this.prefix + lines.join('\n') });
    this.prefix = '';
  }

  private block(block: TextBlock): void {
    this.flush();
    this.blocks.push(block);
  }

  private list(list: DomNode, ordered: boolean): void {
    this.flush();
    const start = this.blocks.length;
    let number = 0;
    for (const item of elementChildren(list)) {
      if (item.nodeName.toLowerCase() !== 'li') continue;
      this.prefix = ordered ? `${++number}. ` : '- ';
      this.visitChildren(item);
      this.flush();
      this.prefix = '';
    }
    this.joinItems(start);
  }

  // A list reads as one paragraph, one item per line, unless an item holds a table, code or a heading.
  private joinItems(start: number): void {
    const items = this.blocks.slice(start);
    if (items.length < 2 || !items.every((block) => block.kind === 'paragraph')) return;
    this.blocks.splice(start, items.length, { kind: 'paragraph', text: items.map((block) => block.text).join('\n') });
  }

  private visitChildren(node: DomNode): void {
    for (const child of Array.from(node.childNodes)) this.visit(child);
  }
}

/** One line per row, cells joined with " | "; nested tables are read as their cells' text. */
function tableText(table: DomNode): string {
  return rows(table)
    .map((row) => tableRowText(cells(row).map(inlineText)))
    .filter(Boolean)
    .join('\n');
}

/** Text of an element on one line; elements that would break a line (<br>, <p>) become spaces. */
function inlineText(node: DomNode): string {
  const parts: string[] = [];
  const visit = (current: DomNode): void => {
    if (current.nodeType === TEXT) parts.push(current.textContent ?? '');
    const name = current.nodeName.toLowerCase();
    if (current.nodeType !== ELEMENT || SKIPPED.has(name)) return;
    const breaks = name === 'br' || name === 'li' || BLOCKS.has(name);
    if (breaks) parts.push(' ');
    for (const child of Array.from(current.childNodes)) visit(child);
    if (breaks) parts.push(' ');
  };
  visit(node);
  return collapseWhitespace(parts.join(''));
}

function rows(node: DomNode): DomNode[] {
  return elementChildren(node).flatMap((child) => {
    const name = child.nodeName.toLowerCase();
    if (name === 'tr') return [child];
    return name === 'table' ? [] : rows(child);
  });
}

function cells(row: DomNode): DomNode[] {
  return elementChildren(row).filter((child) => /^t[dh]$/i.test(child.nodeName));
}

function elementChildren(node: DomNode): DomNode[] {
  return Array.from(node.childNodes).filter((child) => child.nodeType === ELEMENT);
}

function isHidden(node: DomNode): boolean {
  const attribute = (name: string): string | null => node.getAttribute?.(name) ?? null;
  return attribute('hidden') !== null || attribute('aria-hidden') === 'true';
}
