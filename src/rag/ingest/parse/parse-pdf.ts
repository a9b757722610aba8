import { readFile } from 'node:fs/promises';
import { getDocumentProxy } from 'unpdf';
import { UnreadableDocumentError, type DocumentSection } from '../document.js';
import type { ParsedContent } from './document-parser.js';
import { normalizeText } from './normalize-text.js';
import type { ParseLimits } from './parse-limits.js';
import type { PdfTextItem } from './pdf-page-text.js';
import { pageText } from './pdf-page-text.js';
import { damaged, passwordProtected, tooManyPages, tooMuchText } from './unreadable.js';

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/** One section per page that has text, numbered as in the PDF; stops at the first page over the text limit. */
export async function parsePdf(filePath: string, limits: ParseLimits): Promise<ParsedContent> {
  const pdf = await openPdf(new Uint8Array(await readFile(filePath)));
  try {
    if (pdf.numPages > limits.pages) throw tooManyPages(pdf.numPages, 'pages', limits.pages);
    const sections: DocumentSection[] = [];
    let textChars = 0;
    for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber++) {
      const text = normalizeText(pageText(await pageItems(pdf, pageNumber)));
      textChars += text.length;
      if (textChars > limits.textChars) throw tooMuchText(limits.textChars);
      if (text) sections.push({ text, pageNumber });
    }
    return { sections, totalPages: pdf.numPages, title: await pdfTitle(pdf) };
  } catch (error) {
    if (error instanceof UnreadableDocumentError) throw error;
    throw damaged('PDF', error);
  } finally {
    await pdf.destroy();
  }
}

async function openPdf(data: Uint8Array): Promise<PdfDocument> {
  try {
    // pdfjs-dist's font files are not installed; text extraction does not need them, so font loading is off
    // and pdf.js's warnings about it are silenced.
    return await getDocumentProxy(data, {
      verbosity: 0,
      disableFontFace: true,
      useSystemFonts: false,
      isEvalSupported: false,
    });
  } catch (error) {
    if (error instanceof Error && error.name === 'PasswordException') throw passwordProtected('PDF');
    throw damaged('PDF', error);
  }
}

async function pageItems(pdf: PdfDocument, pageNumber: number): Promise<PdfTextItem[]> {
  const page = await pdf.getPage(pageNumber);
  const content = await page.getTextContent();
  const items: PdfTextItem[] = [];
  for (const item of content.items) {
    if (!('str' in item)) continue;
    const [, , c = 0, d = 0, x = 0, y = 0] = item.transform as number[];
    items.push({ str: item.str, x, y, width: item.width, fontSize: Math.hypot(c, d), hasEOL: item.hasEOL });
  }
  page.cleanup();
  return items;
}

async function pdfTitle(pdf: PdfDocument): Promise<string | undefined> {
  const { info } = await pdf.getMetadata().catch(() => ({ info: undefined }));
  const title: unknown = info && typeof info === 'object' && 'Title' in info ? info.Title : undefined;
  return typeof title === 'string' && title.trim() ? title.trim() : undefined;
}
