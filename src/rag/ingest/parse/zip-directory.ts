/** One file of a zip, as its central directory describes it. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated; anything else no Office library reads. */
  method: number;
  /** Where the entry's (compressed) data starts in the archive. */
  dataOffset: number;
  compressedSize: number;
  /** The size the directory claims the data inflates to; a hostile file may lie. */
  declaredSize: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const ZIP64_END_LOCATOR = 0x07064b50;
const ZIP64_END_OF_DIRECTORY = 0x06064b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const ZIP64_EXTRA = 0x0001;
const END_SIZE = 22;
const MAX_COMMENT = 0xffff;
const U16_MAX = 0xffff;
const U32_MAX = 0xffffffff;

/**
 * The entries of a zip archive, read the way JSZip (which mammoth, exceljs and our PPTX reader use) reads them:
 * sizes and method from the central directory, the data after the local header each points to. Like JSZip it
 * reads directory records for as long as they follow one another, whatever count the end record states, so
 * the caller sees every entry a library would; one at a time, so it can stop at a bound. Reads no data.
 *
 * @throws Error when the archive's structure is broken.
 */
export function* readZipDirectory(bytes: Uint8Array): Generator<ZipEntry> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { directoryOffset, shift } = locateDirectory(view);
  for (let at = directoryOffset + shift; isSignature(view, at, DIRECTORY_ENTRY);) {
    const { entry, next } = readDirectoryEntry(view, bytes, at, shift);
    yield entry;
    at = next;
  }
}

/** Where the central directory starts, and by how much bytes before the archive (a self-extracting stub) shift every offset. */
function locateDirectory(view: DataView): { directoryOffset: number; shift: number } {
  const end = findEndOfDirectory(view);
  const directorySize = view.getUint32(end + 12, true);
  const directoryOffset = view.getUint32(end + 16, true);
  const zip64 = view.getUint16(end + 10, true) === U16_MAX || directorySize === U32_MAX || directoryOffset === U32_MAX;
  if (!zip64) return { directoryOffset, shift: checkedShift(end - (directoryOffset + directorySize)) };
  const locator = end - 20;
  if (!isSignature(view, locator, ZIP64_END_LOCATOR)) throw new Error('no zip64 end locator');
  const record = safeNumber(view.getBigUint64(locator + 8, true));
  if (record + 56 > view.byteLength || !isSignature(view, record, ZIP64_END_OF_DIRECTORY)) {
    throw new Error('no zip64 end of central directory');
  }
  const recordSize = safeNumber(view.getBigUint64(record + 4, true));
  const offset = safeNumber(view.getBigUint64(record + 48, true));
  const size = safeNumber(view.getBigUint64(record + 40, true));
  return { directoryOffset: offset, shift: checkedShift(end - (offset + size + 12 + recordSize + 20)) };
}

function checkedShift(shift: number): number {
  if (shift < 0) throw new Error('central directory overlaps its end record');
  return shift;
}

function findEndOfDirectory(view: DataView): number {
  const lowest = Math.max(0, view.byteLength - END_SIZE - MAX_COMMENT);
  for (let at = view.byteLength - END_SIZE; at >= lowest; at--) {
    if (view.getUint32(at, true) === END_OF_DIRECTORY) return at;
  }
  throw new Error('no end of central directory');
}

function isSignature(view: DataView, at: number, signature: number): boolean {
  return at >= 0 && at + 4 <= view.byteLength && view.getUint32(at, true) === signature;
}

function readDirectoryEntry(view: DataView, bytes: Uint8Array, at: number, shift: number): { entry: ZipEntry; next: number } {
  if (at + 46 > view.byteLength) throw new Error('broken central directory');
  const nameLength = view.getUint16(at + 28, true);
  const extraLength = view.getUint16(at + 30, true);
  const commentLength = view.getUint16(at + 32, true);
  const next = at + 46 + nameLength + extraLength + commentLength;
  if (next > view.byteLength) throw new Error('broken central directory');
  const sizes = {
    declaredSize: view.getUint32(at + 24, true),
    compressedSize: view.getUint32(at + 20, true),
    localOffset: view.getUint32(at + 42, true),
  };
  readZip64Sizes(view, at + 46 + nameLength, extraLength, sizes);
  const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
  const dataOffset = localDataOffset(view, sizes.localOffset + shift);
  if (dataOffset + sizes.compressedSize > view.byteLength) throw new Error(`entry ${name} runs past the end`);
  const method = view.getUint16(at + 10, true);
  return { entry: { name, method, dataOffset, compressedSize: sizes.compressedSize, declaredSize: sizes.declaredSize }, next };
}

/** A zip64 extra field holds, in this order, whichever of the three values the header left at 0xffffffff. */
function readZip64Sizes(
  view: DataView,
  start: number,
  length: number,
  sizes: { declaredSize: number; compressedSize: number; localOffset: number },
): void {
  for (let at = start; at + 4 <= start + length;) {
    const id = view.getUint16(at, true);
    const size = view.getUint16(at + 2, true);
    if (id === ZIP64_EXTRA) {
      let field = at + 4;
      for (const key of ['declaredSize', 'compressedSize', 'localOffset'] as const) {
        if (sizes[key] !== U32_MAX || field + 8 > at + 4 + size) continue;
        sizes[key] = safeNumber(view.getBigUint64(field, true));
        field += 8;
      }
      return;
    }
    at += 4 + size;
  }
}

function localDataOffset(view: DataView, at: number): number {
  if (at + 30 > view.byteLength || !isSignature(view, at, LOCAL_HEADER)) throw new Error('broken local header');
  return at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
}

function safeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('zip64 value out of range');
  return Number(value);
}
