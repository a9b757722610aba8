import { UnreadableDocumentError } from '../document.js';

// The messages are shown to the person who uploaded the file, so they say what to do, never what a library said.
// The library's error stays on `cause` for the logs.

export const passwordProtected = (label: string): UnreadableDocumentError =>
  new UnreadableDocumentError(`This ${label} is password-protected; upload a copy without a password`);

export const damaged = (label: string, cause?: unknown): UnreadableDocumentError =>
  new UnreadableDocumentError(`The file is damaged or not a valid ${label} file`, { cause });

export const noText = (hint = ''): UnreadableDocumentError =>
  new UnreadableDocumentError(`The document contains no text${hint}`);

/**
 * Runs a library over a document and turns whatever it throws into "damaged"; our own readable errors pass
 * through, and so do file-system errors (a missing file is the caller's problem, not the document's).
 */
export async function readingAs<T>(label: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof UnreadableDocumentError || isFileSystemError(error)) throw error;
    throw damaged(label, error);
  }
}

function isFileSystemError(error: unknown): boolean {
  return error instanceof Error && 'syscall' in error;
}
