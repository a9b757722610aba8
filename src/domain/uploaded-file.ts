import fs from 'node:fs/promises';
import path from 'node:path';
import type { DocumentKind } from '../rag/ingest/document.js';
import { sniffDocumentKind } from '../rag/ingest/parse/sniff-kind.js';
import { textContentKey } from './duplicate-keys.js';
import { newId } from './ids.js';

/** A file the HTTP layer has already streamed to disk. */
export interface UploadedFile {
  path: string;
  fileName: string;
  size: number;
  /** Its content key (duplicate-keys.ts), hashed while it was written. */
  contentKey: string;
}

/** A readable default name for untitled text: its first words. */
export const firstWords = (text: string): string => {
  const words = text.trim().split(/\s+/).slice(0, 8).join(' ');
  return words.length > 60 ? `${words.slice(0, 59)}…` : words;
};

/** `text` in a temporary file while `use` stores it (the blob store moves or copies it). */
export async function withTextFile<T>(tempDir: string, text: string, use: (upload: UploadedFile, kind: DocumentKind) => Promise<T>): Promise<T> {
  await fs.mkdir(tempDir, { recursive: true });
  const file = path.join(tempDir, `text-${newId()}`);
  try {
    await fs.writeFile(file, text, 'utf8');
    const kind = (await sniffDocumentKind(file, 'text.md')) ?? 'txt';
    return await use({ path: file, fileName: 'text', size: Buffer.byteLength(text), contentKey: textContentKey(text) }, kind);
  } finally {
    // Moved into the blob store by now, unless storing it failed.
    await fs.rm(file, { force: true });
  }
}
