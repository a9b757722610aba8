import { chunkDocument, type ChunkingOptions, type TextChunk } from './chunk-document.js';
import { UnreadableDocumentError, type DocumentKind } from './document.js';
import { parseDocument } from './parse/index.js';
import type { ParseLimits } from './parse/parse-limits.js';
import { nestedTooDeep } from './parse/unreadable.js';

export interface PrepareTask {
  filePath: string;
  kind: DocumentKind;
  chunking: ChunkingOptions;
  limits: ParseLimits;
}

/**
 * The CPU-heavy half of ingestion (parse and chunk) as one plain-data call, so it can run in a worker
 * thread. Unreadable documents come back as a value: error classes do not survive the thread boundary.
 */
export type PreparedDocument =
  { ok: true; chunks: TextChunk[]; textSize: number; totalPages: number | null; title: string | null } | { ok: false; unreadable: string };

export async function prepareDocument(task: PrepareTask): Promise<PreparedDocument> {
  try {
    const document = await parseDocument(task.filePath, task.kind, task.limits);
    const chunks = chunkDocument(document, task.chunking);
    const textSize = document.sections.reduce((total, section) => total + section.text.length, 0);
    return { ok: true, chunks, textSize, totalPages: document.totalPages ?? null, title: document.title ?? null };
  } catch (error) {
    if (error instanceof UnreadableDocumentError) return { ok: false, unreadable: error.message };
    if (isStackOverflow(error)) return { ok: false, unreadable: nestedTooDeep().message };
    throw error;
  }
}

/** A parser that recurses (Readability, the JSON flattener) overflows on a deep enough document: that is the document's doing, not a passing failure. */
const isStackOverflow = (error: unknown): boolean => error instanceof RangeError && error.message === 'Maximum call stack size exceeded';
