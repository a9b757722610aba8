import { parseHTML } from 'linkedom';
import type { DomNode } from './html-blocks.js';

/** The parts of a parsed HTML document that the parsers use. */
export interface HtmlDocument {
  readonly title: string;
  readonly body: DomNode | null;
  querySelector(selector: string): DomNode | null;
  cloneNode(deep: boolean): HtmlDocument;
}

/**
 * A DOM for an HTML string, built by linkedom (no browser, no scripts run). linkedom's types describe the
 * browser's DOM, which this project's compiler settings do not include, so the shape is stated here once.
 */
export function parseHtmlDocument(html: string): HtmlDocument {
  const { document } = parseHTML(html) as { document: HtmlDocument };
  return document;
}

/** A document whose body is the given HTML fragment. */
export function htmlFragment(html: string): HtmlDocument {
  return parseHtmlDocument(`<!doctype html><html><head></head><body>${html}</body></html>`);
}
