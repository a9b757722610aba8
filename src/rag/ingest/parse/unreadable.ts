import { UnreadableDocumentError } from '../document.js';

// The messages are shown to the person who uploaded the file, so they say what to do, never what a library said.
// The library's error stays on `cause` for the logs.

export const passwordProtected = (label: string): UnreadableDocumentError =>
  new UnreadableDocumentError(`This ${label} is password-protected; upload a copy without a password`);

export const damaged = (label: string, cause?: unknown): UnreadableDocumentError =>
  new UnreadableDocumentError(`The file is damaged or not a valid ${label} file`, { cause });

export const noText = (hint = ''): UnreadableDocumentError => new UnreadableDocumentError(`The document contains no text${hint}`);

/** A document over one of the parse limits; `what` says how big it is, `limit` what Parley reads at most. */
export const overLimit = (what: string, limit: string): UnreadableDocumentError =>
  new UnreadableDocumentError(`${what}, more than Parley reads (at most ${limit}); split it into smaller documents`);

/** A count as people write it: 1,000,000. */
export const formatCount = (value: number): string => value.toLocaleString('en-US');

export const tooManyPages = (count: number, unit: 'pages' | 'slides' | 'sheets', limit: number): UnreadableDocumentError =>
  overLimit(`The document has ${formatCount(count)} ${unit}`, `${formatCount(limit)} ${unit}`);

export const tooManyColumns = (count: number, limit: number): UnreadableDocumentError =>
  overLimit(`The document has a row of ${formatCount(count)} columns`, `${formatCount(limit)} columns`);

export const tooManyCells = (limit: number): UnreadableDocumentError =>
  overLimit(`The document has over ${formatCount(limit)} cells`, `${formatCount(limit)} cells`);

export const tooMuchText = (limit: number): UnreadableDocumentError =>
  overLimit(`The document holds over ${formatCount(limit)} characters of text`, `${formatCount(limit)} characters`);

export const tooMuchMemory = (limitMb: number): UnreadableDocumentError =>
  new UnreadableDocumentError(
    `Reading the document takes over ${formatCount(limitMb)} MB of memory, the most Parley gives one document; split it into smaller documents`,
  );

/** A document whose parse and chunking ran past the time Parley gives one document. */
export const tookTooLong = (seconds: number): UnreadableDocumentError =>
  new UnreadableDocumentError(
    `Reading the document took over ${formatCount(seconds)} second${seconds === 1 ? '' : 's'}, the most Parley gives one document; split it into smaller documents`,
  );

/** A document nested so deep that reading it overflowed the call stack: another attempt would do the same. */
export const nestedTooDeep = (): UnreadableDocumentError =>
  new UnreadableDocumentError('The document nests its content too deep to be read; flatten its structure or split it');

export const formatMegabytes = (bytes: number): string => `${formatCount(Math.ceil(bytes / (1024 * 1024)))} MB`;

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
