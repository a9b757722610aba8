import type { DocumentKind, ParsedDocument } from '../document.js';
import type { DocumentParser } from './document-parser.js';
import { parseCsv } from './parse-csv.js';
import { parseDocx } from './parse-docx.js';
import { parseHtml } from './parse-html.js';
import { parseJson } from './parse-json.js';
import { parseMarkdown } from './parse-markdown.js';
import { parsePdf } from './parse-pdf.js';
import { parsePptx } from './parse-pptx.js';
import { parseText } from './parse-text.js';
import { parseXlsx } from './parse-xlsx.js';
import { PARSE_LIMITS, type ParseLimits } from './parse-limits.js';
import { noText, tooMuchText } from './unreadable.js';

export { sniffDocumentKind } from './sniff-kind.js';

const PARSERS: Readonly<Record<DocumentKind, DocumentParser>> = {
  pdf: parsePdf,
  docx: parseDocx,
  pptx: parsePptx,
  xlsx: parseXlsx,
  csv: parseCsv,
  txt: parseText,
  markdown: parseMarkdown,
  html: parseHtml,
  json: parseJson,
};

/**
 * A document's text in sections (pages, slides, sheets or heading sections), with whitespace normalised
 * and paragraph breaks kept as blank lines.
 *
 * @param kind as decided by `sniffDocumentKind`.
 * @throws UnreadableDocumentError, with a message fit to show the uploader, for encrypted, damaged or empty
 * documents and for documents over `limits`.
 */
export async function parseDocument(filePath: string, kind: DocumentKind, limits: ParseLimits = PARSE_LIMITS): Promise<ParsedDocument> {
  const { sections, title, totalPages } = await PARSERS[kind](filePath, limits);
  const withText = sections.filter((section) => section.text.trim() !== '');
  if (withText.length === 0) throw noText(kind === 'pdf' ? ' (is it a scanned image?)' : '');
  const textChars = withText.reduce((total, section) => total + section.text.length, 0);
  if (textChars > limits.textChars) throw tooMuchText(limits.textChars);
  return { kind, sections: withText, ...(title ? { title } : {}), ...(totalPages === undefined ? {} : { totalPages }) };
}
