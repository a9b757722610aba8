import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { UnreadableDocumentError } from '../document.js';
import type { PackageKind, ParseLimits } from './parse-limits.js';
import { damaged, formatCount, formatMegabytes, overLimit } from './unreadable.js';
import { readZipDirectory, type ZipEntry } from './zip-directory.js';

const STORED = 0;
const DEFLATED = 8;
const XML_PART = /\.(?:xml|rels)$/i;

/**
 * Measures a DOCX, PPTX or XLSX package before a library opens it: its parts, the bytes they inflate to and
 * the XML elements in them. The libraries inflate and parse whole parts in memory, trusting what the zip
 * says; here declared sizes are summed first, then every part is inflated as a stream, counting the bytes
 * that really come out (a part may claim a few kilobytes and inflate to gigabytes), and dropped.
 *
 * @throws UnreadableDocumentError naming the bound a package exceeds, or saying it is damaged.
 */
export async function checkPackageSize(bytes: Uint8Array, kind: PackageKind, limits: ParseLimits): Promise<void> {
  const label = kind.toUpperCase();
  const entries = listEntries(bytes, label, limits.packageEntries);
  const declared = entries.reduce((total, entry) => total + entry.declaredSize, 0);
  if (declared > limits.packageBytes) {
    throw overLimit(`The ${label} file expands to ${formatMegabytes(declared)} when unzipped`, formatMegabytes(limits.packageBytes));
  }
  const elements = new ElementCount(label, limits.xmlElements[kind]);
  for (const entry of entries) {
    const data = bytes.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
    const counter = XML_PART.test(entry.name) ? elements : undefined;
    if (entry.method === STORED) {
      if (data.length > entry.declaredSize) throw damaged(label);
      counter?.add(data);
    } else if (entry.method === DEFLATED) {
      await inflateWithin(data, entry, label, counter);
    } else {
      throw damaged(label);
    }
  }
}

function listEntries(bytes: Uint8Array, label: string, limit: number): ZipEntry[] {
  const entries: ZipEntry[] = [];
  try {
    for (const entry of readZipDirectory(bytes)) {
      if (entries.length === limit) throw overLimit(`The ${label} file has over ${formatCount(limit)} parts`, `${formatCount(limit)} parts`);
      entries.push(entry);
    }
  } catch (error) {
    if (error instanceof UnreadableDocumentError) throw error;
    throw damaged(label, error);
  }
  return entries;
}

/** Inflates one part as a stream, stopping as soon as it gives more than it declared. */
async function inflateWithin(data: Uint8Array, entry: ZipEntry, label: string, counter: ElementCount | undefined): Promise<void> {
  let size = 0;
  try {
    for await (const chunk of Readable.from([data]).pipe(createInflateRaw({ chunkSize: 64 * 1024 }))) {
      const bytes = chunk as Buffer;
      size += bytes.length;
      if (size > entry.declaredSize) throw damaged(label);
      counter?.add(bytes);
    }
  } catch (error) {
    if (error instanceof UnreadableDocumentError) throw error;
    throw damaged(label, error);
  }
}

const LESS_THAN = 0x3c;
const SLASH = 0x2f;
const QUESTION_MARK = 0x3f;
const EXCLAMATION_MARK = 0x21;

/**
 * Counts start tags ("<w:p", "<c"), which is one per element; end tags, declarations and comments do not
 * count. A tag split across two chunks is still counted once.
 */
class ElementCount {
  #count = 0;
  #afterLessThan = false;

  constructor(
    private readonly label: string,
    private readonly limit: number,
  ) {}

  add(bytes: Uint8Array): void {
    let count = this.#count;
    let afterLessThan = this.#afterLessThan;
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i]!;
      if (afterLessThan && byte !== SLASH && byte !== QUESTION_MARK && byte !== EXCLAMATION_MARK) count++;
      afterLessThan = byte === LESS_THAN;
    }
    this.#count = count;
    this.#afterLessThan = afterLessThan;
    if (count > this.limit) {
      const limit = formatCount(this.limit);
      throw overLimit(`The ${this.label} file has over ${limit} XML elements (paragraphs, runs, cells…)`, `${limit} in one ${this.label} file`);
    }
  }
}
