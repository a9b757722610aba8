import { readFile } from 'node:fs/promises';
import { isProbablyReaderable, Readability } from '@mozilla/readability';
import type { DocumentSection } from '../document.js';
import type { ParsedContent } from './document-parser.js';
import { decodeText } from './decode-text.js';
import { blocksFromHtml, nestsDeeperThan, type DomNode } from './html-blocks.js';
import type { HtmlDocument } from './html-document.js';
import { htmlFragment, parseHtmlDocument } from './html-document.js';
import { collapseWhitespace } from './normalize-text.js';
import { sectionsFromBlocks } from './text-block.js';

/**
 * Elements nested deeper than this skip the reader view. Readability recurses, and its cost grows with the
 * page's size times its depth: 1,000 nested divs took it 9.5 s, 2,000 took 40 s, 10,000 overflowed the stack.
 * Real pages nest 20 to 40 deep (the saved Wikipedia page of the tests, 20).
 */
const READER_VIEW_MAX_DEPTH = 100;

/**
 * The page's main content as Readability (Firefox's reader view) finds it, sectioned at its headings. Pages
 * that do not look like an article (too short, no main text), that Readability cannot make sense of, or that
 * nest too deep for it fall back to the whole body, minus navigation, header, footer, scripts and styles.
 */
export async function parseHtml(filePath: string): Promise<ParsedContent> {
  const bytes = await readFile(filePath);
  const { text } = decodeText(bytes, { declaredCharset: declaredCharset(bytes) });
  const document = parseHtmlDocument(text);
  const title = collapseWhitespace(document.title) || undefined;
  const root = document.body ?? document.querySelector('html');
  const readable = root !== null && !nestsDeeperThan(root, READER_VIEW_MAX_DEPTH);
  const sections = readable ? mainContent(document.cloneNode(true)) : [];
  return { sections: sections.length > 0 ? sections : bodyContent(root), title };
}

// Readability is typed against the browser's Document; linkedom's implements what it uses.
type ReadabilityDocument = ConstructorParameters<typeof Readability>[0];

function mainContent(document: HtmlDocument): DocumentSection[] {
  try {
    const dom = document as unknown as ReadabilityDocument;
    // On a short page Readability drops headings it takes for the title and finds no boilerplate worth removing.
    if (!isProbablyReaderable(dom)) return [];
    const article = new Readability(dom).parse();
    const body = article?.content ? htmlFragment(article.content).body : null;
    return body ? sectionsFromBlocks(blocksFromHtml(body)) : [];
  } catch {
    // Readability gives up on some malformed pages by throwing; the body fallback still reads them.
    return [];
  }
}

function bodyContent(root: DomNode | null): DocumentSection[] {
  return root ? sectionsFromBlocks(blocksFromHtml(root)) : [];
}

// The charset a page declares sits in its first bytes, in ASCII, whatever the encoding of the rest.
function declaredCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, 4096)).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1];
}
