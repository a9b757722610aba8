import { fileTypeFromFile } from 'file-type';
import type { DocumentKind } from '../document.js';
import { decodeText } from './decode-text.js';
import { namesEncryptedPackage } from './office-file.js';
import { readFileSlice } from './read-file-head.js';
import { sniffTextKind } from './sniff-text-kind.js';

const HEAD_BYTES = 64 * 1024;

const KIND_BY_FILE_TYPE: Readonly<Record<string, DocumentKind>> = {
  pdf: 'pdf',
  docx: 'docx',
  docm: 'docx',
  dotx: 'docx',
  dotm: 'docx',
  pptx: 'pptx',
  pptm: 'pptx',
  ppsx: 'pptx',
  ppsm: 'pptx',
  potx: 'pptx',
  potm: 'pptx',
  xlsx: 'xlsx',
  xlsm: 'xlsx',
  xltx: 'xlsx',
  xltm: 'xlsx',
};

const TEXT_BOMS = [
  [0xef, 0xbb, 0xbf],
  [0xff, 0xfe],
  [0xfe, 0xff],
];

/**
 * What kind of document a file is, from its content: magic bytes for binary formats (file-type looks inside
 * zips to tell DOCX, PPTX and XLSX apart), and the text itself for HTML, JSON, CSV, Markdown and plain text.
 * Undefined for anything Parley does not read: executables, images, media, other archives, other binary.
 * Reads the head of the file (and, for Office's encrypted container, its tail), never the whole of it.
 *
 * @param fileName the uploaded name; consulted only where content cannot decide (see `sniffTextKind`).
 */
export async function sniffDocumentKind(filePath: string, fileName?: string): Promise<DocumentKind | undefined> {
  const head = await readFileSlice(filePath, HEAD_BYTES);
  const extension = fileName ? extensionOf(fileName) : undefined;
  const complete = head.length < HEAD_BYTES;
  // Checked first: file-type reads a UTF-16 byte-order mark as an MPEG audio frame.
  if (TEXT_BOMS.some((bom) => bom.every((byte, i) => head[i] === byte))) return sniffText(head, extension, complete);
  const detected = await fileTypeFromFile(filePath);
  if (!detected) return sniffUntyped(head, extension, complete);
  const kind = KIND_BY_FILE_TYPE[detected.ext];
  if (kind) return kind;
  if (detected.ext === 'cfb') return sniffEncryptedOffice(filePath, head, extension);
  if (detected.ext === 'xml') return sniffText(head, extension, complete);
  // Some formats are known by two or three ASCII letters ("BM", "MZ", "ID3"), which text may begin with too
  // ("BMW reported…"); a real file of those formats is binary within its first bytes.
  const textFormat = detected.ext === 'rtf' || detected.mime.startsWith('text/');
  return textFormat || looksBinary(head) ? undefined : sniffText(head, extension, complete);
}

function sniffUntyped(head: Uint8Array, extension: string | undefined, complete: boolean): DocumentKind | undefined {
  // PDF readers accept the header anywhere in the first kilobyte; file-type only looks at the very start.
  if (Buffer.from(head.subarray(0, 1024)).includes('%PDF-')) return 'pdf';
  return looksBinary(head) ? undefined : sniffText(head, extension, complete);
}

function sniffText(head: Uint8Array, extension: string | undefined, complete: boolean): DocumentKind | undefined {
  const { text } = decodeText(head, { partial: !complete });
  // The head may end mid-line, or mid-record; the last line is left out so it does not spoil the sample.
  const sample = complete ? text : text.slice(0, Math.max(text.lastIndexOf('\n'), 0));
  return sniffTextKind(sample, extension, complete);
}

/**
 * Office encrypts a DOCX, PPTX or XLSX into the same container whatever it was, so only the name can say
 * which; the parser then explains that the file needs its password removed. Legacy .doc/.xls/.ppt files
 * share the container but are not encrypted packages, and are not supported.
 */
async function sniffEncryptedOffice(filePath: string, head: Uint8Array, extension: string | undefined): Promise<DocumentKind | undefined> {
  const kind = extension ? KIND_BY_FILE_TYPE[extension] : undefined;
  if (!kind || kind === 'pdf') return undefined;
  // The directory naming the streams is usually near the start, but writers may put it at the end.
  const encrypted = namesEncryptedPackage(head) || namesEncryptedPackage(await readFileSlice(filePath, HEAD_BYTES, 'end'));
  return encrypted ? kind : undefined;
}

// Text has no NUL bytes (UTF-16 was caught by its byte-order mark) and hardly any other control bytes.
function looksBinary(head: Uint8Array): boolean {
  let controls = 0;
  for (const byte of head) {
    if (byte === 0) return true;
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c && byte !== 0x1b) controls++;
  }
  return controls > head.length * 0.02;
}

function extensionOf(fileName: string): string | undefined {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : undefined;
}
