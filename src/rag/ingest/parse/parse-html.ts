import { readFile } from 'node:fs/promises';
import { isProbablyReaderable, Readability } from '@mozilla/readability';
import type { DocumentSection } from '../document.js';
import type { ParsedContent } from './document-parser.js';
import { decodeText } from './decode-text.js';
import { blocksFromHtml } from './html-blocks.js';
import type { HtmlDocument } from './html-document.js';
import { htmlFragment, parseHtmlDocument } from './html-document.js';
import { collapseWhitespace } from './normalize-text.js';
import { sectionsFromBlocks } from './text-block.js';

/**
 * The page's main content as Readability (Firefox's reader view) finds it, sectioned at its headings. Pages
 * that do not look like an article (too short, no main text) or that Readability cannot make sense of fall
 * back to the whole body, minus navigation, header, footer, scripts and styles.
 */
export async function parseHtml(filePath: string): Promise<ParsedContent> {
  const bytes = await readFile(filePath);
  const { text } = decodeText(bytes, { declaredCharset: declaredCharset(bytes) });
  const document = parseHtmlDocument(text);
  const title = collapseWhitespace(document.title) || undefined;
  const sections = mainContent(document.cloneNode(true));
  return { sections: sections.length > 0 ? sections : bodyContent(document), title };
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

function bodyContent(document: HtmlDocument): DocumentSection[] {
  const root = document.body ?? document.querySelector('html');
  return root ? sectionsFromBlocks(blocksFromHtml(root)) : [];
}

// The charset a page declares sits in its first bytes, in ASCII, whatever the encoding of the rest.
function declaredCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, 4096)).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1];
}
