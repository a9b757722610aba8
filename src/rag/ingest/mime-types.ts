import type { DocumentKind } from './document.js';

/** The media type recorded for each kind of document. */
export const MIME_TYPES: Readonly<Record<DocumentKind, string>> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv',
  txt: 'text/plain',
  markdown: 'text/markdown',
  html: 'text/html',
  json: 'application/json',
};
