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
  'script',
  'style',
  'noscript',
  'template',
  'head',
  'svg',
  'canvas',
  'iframe',
  'object',
  'embed',
  'img',
  'picture',
  'video',
  'audio',
  'nav',
  'header',
  'footer',
  'aside',
  'form',
  'button',
  'select',
  'textarea',
  'menu',
]);

const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'blockquote',
  'figure',
  'figcaption',
  'caption',
  'dl',
  'dt',
  'dd',
  'address',
  'details',
  'summary',
  'hr',
  'fieldset',
  'center',
  'body',
  'html',
]);

/**
 * Headings, paragraphs, list items, tables and preformatted text of an HTML tree, in document order. The
 * tree is walked with a stack of its own, not by recursion, so a page of 100,000 nested elements is read like
 * any other instead of overflowing the call stack.
 */
export function blocksFromHtml(root: DomNode): TextBlock[] {
  const collector = new BlockCollector();
  const steps: Step[] = [root];
  for (let step = steps.pop(); step !== undefined; step = steps.pop()) {
    if (typeof step === 'function') step();
    else collector.visit(step, steps);
  }
  collector.flush();
  return collector.blocks;
}

/** Whether some element of the tree under `root` lies more than `depth` elements below it. */
export function nestsDeeperThan(root: DomNode, depth: number): boolean {
  const stack: Array<[DomNode, number]> = [[root, 0]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, level] = top;
    if (level > depth) return true;
    for (const child of elementChildren(node)) stack.push([child, level + 1]);
  }
  return false;
}

/** What is left to do in a walk, the next step last: a node to visit, or what to do once a node's children are read. */
type Step = DomNode | (() => void);

class BlockCollector {
  readonly blocks: TextBlock[] = [];
  private inline: string[] = [];
  private prefix = '';

  /** Reads `node`, putting on `steps` what its children and the end of it need. */
  visit(node: DomNode, steps: Step[]): void {
    if (node.nodeType === TEXT) this.inline.push(node.textContent ?? '');
    if (node.nodeType !== ELEMENT || isHidden(node)) return;
    const name = node.nodeName.toLowerCase();
    if (SKIPPED.has(name)) return;
    if (/^h[1-6]$/.test(name)) return this.block({ kind: 'heading', level: Number(name[1]), text: inlineText(node) });
    if (name === 'pre') return this.block({ kind: 'verbatim', text: node.textContent ?? '' });
    if (name === 'table') return this.block({ kind: 'paragraph', text: tableText(node) });
    if (name === 'ul' || name === 'ol') return this.list(node, name === 'ol', steps);
    if (name === 'br') {
      this.inline.push(LINE_BREAK);
      return;
    }
    const isBlock = BLOCKS.has(name) || name === 'li' || name === 'tr';
    if (isBlock) {
      this.flush();
      steps.push(() => this.flush());
    }
    pushChildren(steps, node);
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

  private list(list: DomNode, ordered: boolean, steps: Step[]): void {
    this.flush();
    const start = this.blocks.length;
    steps.push(() => this.joinItems(start));
    const items = elementChildren(list).filter((item) => item.nodeName.toLowerCase() === 'li');
    // Pushed last item first: the stack hands them back in order.
    for (let index = items.length - 1; index >= 0; index--) {
      steps.push(() => {
        this.flush();
        this.prefix = '';
      });
      pushChildren(steps, items[index]!);
      steps.push(() => {
        this.prefix = ordered ? `${index + 1}. ` : '- ';
      });
    }
  }

  // A list reads as one paragraph, one item per line, unless an item holds a table, code or a heading.
  private joinItems(start: number): void {
    const items = this.blocks.slice(start);
    if (items.length < 2 || !items.every((block) => block.kind === 'paragraph')) return;
    this.blocks.splice(start, items.length, { kind: 'paragraph', text: items.map((block) => block.text).join('\n') });
  }
}

/** `node`'s children onto `stack`, last first, so they come off it in document order. */
function pushChildren<T>(stack: Array<DomNode | T>, node: DomNode): void {
  const children = node.childNodes;
  for (let index = children.length - 1; index >= 0; index--) stack.push(children[index]!);
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
  // A string on the stack is text to add once the nodes above it are read.
  const stack: Array<DomNode | string> = [node];
  for (let current = stack.pop(); current !== undefined; current = stack.pop()) {
    if (typeof current === 'string') {
      parts.push(current);
      continue;
    }
    if (current.nodeType === TEXT) parts.push(current.textContent ?? '');
    const name = current.nodeName.toLowerCase();
    if (current.nodeType !== ELEMENT || SKIPPED.has(name)) continue;
    const breaks = name === 'br' || name === 'li' || BLOCKS.has(name);
    if (breaks) {
      parts.push(' ');
      stack.push(' ');
    }
    pushChildren(stack, current);
  }
  return collapseWhitespace(parts.join(''));
}

/** The rows of a table, nested tables' rows left out, in document order. */
function rows(table: DomNode): DomNode[] {
  const found: DomNode[] = [];
  const stack: DomNode[] = [];
  pushChildren(stack, table);
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.nodeType !== ELEMENT) continue;
    const name = node.nodeName.toLowerCase();
    if (name === 'tr') found.push(node);
    else if (name !== 'table') pushChildren(stack, node);
  }
  return found;
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
