/** The kinds of document Parley ingests, decided from the content, never from the file name alone. */
export type DocumentKind = 'pdf' | 'docx' | 'pptx' | 'xlsx' | 'csv' | 'txt' | 'markdown' | 'html' | 'json';

/**
 * One stretch of a document's text with where it came from: a PDF page, a slide, a sheet, or a section
 * under a heading. Parsers keep paragraph breaks as blank lines so the chunker can respect them.
 */
export interface DocumentSection {
  text: string;
  /** 1-based page (PDF), slide (PPTX) or sheet (XLSX) number. */
  pageNumber?: number;
  /** The heading path this section sits under, e.g. ["Installation", "On Linux"]. */
  headings?: string[];
}

export interface ParsedDocument {
  kind: DocumentKind;
  /** In document order. */
  sections: DocumentSection[];
  title?: string;
  /** Pages, slides or sheets in the whole document, where the kind has them. */
  totalPages?: number;
}

/** A document that cannot be read (encrypted, corrupt, empty); the message is shown to people as is. */
export class UnreadableDocumentError extends Error {
  override readonly name = 'UnreadableDocumentError';
}
