import { XMLParser } from 'fast-xml-parser';

/** An XML element with its children in document order (slide shapes and runs must stay in order). */
export interface XmlElement {
  name: string;
  attributes: Readonly<Record<string, string>>;
  children: XmlNode[];
}

export type XmlNode = XmlElement | string;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  // Text runs such as " " between words are content; trimming them would glue words together.
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: false,
});

/** A document's root element; throws when the text is not XML. */
export function parseXml(xml: string): XmlElement {
  const isElement = (node: XmlNode): node is XmlElement => typeof node !== 'string' && !node.name.startsWith('?');
  const root = toNodes(parser.parse(xml)).find(isElement);
  if (!root) throw new Error('No root element');
  return root;
}

/** Elements named `name` below `element`, in document order, not looking inside matches. */
export function findAll(element: XmlElement, name: string): XmlElement[] {
  return element.children.flatMap((child) => {
    if (typeof child === 'string') return [];
    return child.name === name ? [child] : findAll(child, name);
  });
}

export function findFirst(element: XmlElement, name: string): XmlElement | undefined {
  for (const child of element.children) {
    if (typeof child === 'string') continue;
    if (child.name === name) return child;
    const found = findFirst(child, name);
    if (found) return found;
  }
  return undefined;
}

export function childElements(element: XmlElement, name?: string): XmlElement[] {
  return element.children.filter((child): child is XmlElement => typeof child !== 'string' && (name === undefined || child.name === name));
}

export function textContent(element: XmlElement): string {
  return element.children.map((child) => (typeof child === 'string' ? child : textContent(child))).join('');
}

// fast-xml-parser's ordered output: [{ tag: [children], ':@': { attrs } } | { '#text': '...' }].
function toNodes(raw: unknown): XmlNode[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((entry: unknown): XmlNode[] => {
    if (!isRecord(entry)) return [];
    if ('#text' in entry) return [String(entry['#text'])];
    const name = Object.keys(entry).find((key) => key !== ':@');
    if (name === undefined) return [];
    return [{ name, attributes: toAttributes(entry[':@']), children: toNodes(entry[name]) }];
  });
}

function toAttributes(raw: unknown): Record<string, string> {
  if (!isRecord(raw)) return {};
  return Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, String(value)]));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
