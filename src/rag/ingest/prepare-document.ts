import { chunkDocument, type ChunkingOptions, type TextChunk } from './chunk-document.js';
import { UnreadableDocumentError, type DocumentKind, type ParsedDocument } from './document.js';
import { parseDocument } from './parse/index.js';

export interface PrepareTask {
  filePath: string;
  kind: DocumentKind;
  chunking: ChunkingOptions;
  /** A title to use when the document carries none (a text datasource's name). */
  fallbackTitle?: string;
}

/**
 * The CPU-heavy half of ingestion (parse and chunk) as one plain-data call, so it can run in a worker
 * thread. Unreadable documents come back as a value: error classes do not survive the thread boundary.
 */
export type PreparedDocument =
  | { ok: true; chunks: TextChunk[]; textSize: number; totalPages: number | null; title: string | null }
  | { ok: false; unreadable: string };

/**
 * Puts every section under the document's title, so each chunk starts with it: a passage deep in a
 * long document then still says what it belongs to, for keyword and vector search alike.
 */
function underTitle(document: ParsedDocument, title: string | undefined): ParsedDocument {
  const heading = title?.replace(/\s+/g, ' ').trim();
  if (!heading) return document;
  return {
    ...document,
    sections: document.sections.map((section) => {
      const headings = section.headings ?? [];
      return { ...section, headings: headings[0] === heading ? headings : [heading, ...headings] };
    }),
  };
}

export async function prepareDocument(task: PrepareTask): Promise<PreparedDocument> {
  try {
    const document = await parseDocument(task.filePath, task.kind);
    const chunks = chunkDocument(underTitle(document, document.title ?? task.fallbackTitle), task.chunking);
    const textSize = document.sections.reduce((total, section) => total + section.text.length, 0);
    return { ok: true, chunks, textSize, totalPages: document.totalPages ?? null, title: document.title ?? null };
  } catch (error) {
    if (error instanceof UnreadableDocumentError) return { ok: false, unreadable: error.message };
    throw error;
  }
}
