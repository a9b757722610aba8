import type { DocumentKind } from '../document.js';

/** The zip-based Office formats, whose parts are inflated and parsed by libraries. */
export type PackageKind = Extract<DocumentKind, 'docx' | 'pptx' | 'xlsx'>;

/**
 * What reading one document may cost. A document over any bound is refused with a message naming it,
 * before the expensive work where the format allows (a zip's sizes and markup are measured before a
 * library opens it), otherwise as soon as the parser sees it.
 */
export interface ParseLimits {
  /** Bytes a DOCX, PPTX or XLSX package may inflate to, all its parts together. */
  readonly packageBytes: number;
  /** Parts (files) in such a package. */
  readonly packageEntries: number;
  /** XML elements in such a package, all its parts together, by format. */
  readonly xmlElements: Readonly<Record<PackageKind, number>>;
  /** Fields in one row of a CSV file or a sheet. */
  readonly tableColumns: number;
  /**
   * Fields of a CSV file, or cells of a workbook's sheets, all together. In a sheet, the empty cells before a
   * row's last one count: each is rendered.
   */
  readonly tableCells: number;
  /** Pages, slides or sheets. */
  readonly pages: number;
  /** Characters of text extracted from the document. */
  readonly textChars: number;
  /** Seconds the document's parse and chunking may take together, kept by the parse pool from outside the thread. */
  readonly seconds: number;
}

/**
 * Old-generation heap of a parse thread, in MB: the XML element bounds below are measured so that a package
 * inside them parses within it, and a document that still needs more stops its thread, not the process. A
 * process has a thread per job it may run at once (by default two, and one kept for another workspace): three
 * documents at this bound together would take 3 GB, a machine of 4 GB holds them.
 */
export const PARSE_WORKER_MEMORY_MB = 1024;

/**
 * 200 MB unpacked. A 50,000-row, 20-column workbook inflates to about 46 MB and a 400-page report's XML to
 * about 21 MB; uploads are 50 MB by default and pictures hardly inflate, so only a compression bomb needs more.
 */
export const MAX_PACKAGE_BYTES = 200 * 1024 * 1024;

/**
 * 25,000 parts. A deck at the page bound has four parts per slide (slide, notes and their relationships);
 * a crafted zip with millions of empty entries costs the libraries an object each before anything is read.
 */
export const MAX_PACKAGE_ENTRIES = 25_000;

/**
 * XML elements by format, so that a package inside them parses within {@link PARSE_WORKER_MEMORY_MB}. mammoth (DOCX) holds two trees
 * of the document at once, about 1.6 KB an element: 480,000 elements (a 400-page report) peaked at 880 MB, and
 * 800,000 did not fit in 1 GB. Our PPTX reader takes ~0.8 KB an element (1,000,000 in one slide peaked at
 * 840 MB); exceljs ~220 B (a 75,000-row, 20-column sheet, 4 million elements, peaked at 880 MB).
 */
export const MAX_XML_ELEMENTS: Readonly<Record<PackageKind, number>> = {
  docx: 500_000,
  pptx: 1_000_000,
  xlsx: 4_000_000,
};

/**
 * 16,384 columns: Excel's own bound, so any sheet exported to CSV fits. A 15 MB CSV file of one million
 * columns renders as "header: value" pairs to 19 million characters on one line, 23,000 chunks to embed.
 */
export const MAX_TABLE_COLUMNS = 16_384;

/**
 * 5 million cells: a 50,000-row CSV export with 100 columns parses in ~560 MB. A 160 KB workbook whose 20,000
 * rows each hold A and XFD is 330 million cells once rendered, and ran a parse past 4 GB.
 */
export const MAX_TABLE_CELLS = 5_000_000;

/** 5,000 pages: several times the longest report or manual; a PDF states its count before any page is read. */
export const MAX_PAGES = 5_000;

/**
 * 30 million characters: a 50,000-row, 20-column sheet renders to about 23 million. Chunking takes ~28 B a
 * character (36 million peaked at 1 GB; 48 million did not fit), and at ~1,200 characters a chunk and ~16
 * chunks a second on two cores (bench/results.json), 30 million is some 25 minutes of embedding.
 */
export const MAX_TEXT_CHARS = 30_000_000;

/**
 * 180 seconds (`PARLEY_PARSE_SECONDS` changes it): what real documents inside the bounds above need, with room.
 * On a loaded two-core machine a 50,000-row, 20-column workbook (26 million characters, 50,000 chunks) took 23 s
 * to parse and chunk, a 1,000-page PDF of plain text 2.7 s, the PDF fixtures 9 to 46 ms a page (two-column
 * scientific pages the most), 2,000 such pages a minute and a half. A document that needs more is stuck rather
 * than big: before inline Markdown was made linear, 400 KB of "[" took over 7 minutes.
 */
export const MAX_PARSE_SECONDS = 180;

/** The limits Parley applies to every document; tests lower them through the prepare task. */
export const PARSE_LIMITS: ParseLimits = {
  packageBytes: MAX_PACKAGE_BYTES,
  packageEntries: MAX_PACKAGE_ENTRIES,
  xmlElements: MAX_XML_ELEMENTS,
  tableColumns: MAX_TABLE_COLUMNS,
  tableCells: MAX_TABLE_CELLS,
  pages: MAX_PAGES,
  textChars: MAX_TEXT_CHARS,
  seconds: MAX_PARSE_SECONDS,
};
