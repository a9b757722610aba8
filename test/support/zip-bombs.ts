import { constants, deflateRawSync } from 'node:zlib';

/** One file of a hand-written zip: its data as stored, and the inflated size its headers claim. */
export interface ZipPart {
  name: string;
  data: Uint8Array;
  method: 'stored' | 'deflated';
  declaredSize: number;
}

/** Deflated data and the number of bytes it really inflates to. */
export interface Deflated {
  data: Buffer;
  size: number;
}

/**
 * `head`, then `body` `times` times, then `tail`, as one raw deflate stream, made in milliseconds whatever
 * its inflated size: each piece is compressed alone with a full flush (byte-aligned, no reference back across
 * it), so the compressed body can simply be repeated. A 1 MiB body of markup compresses to about 1 KB.
 */
export function deflateRepeated(head: string, body: string, times: number, tail: string): Deflated {
  const flushed = (text: string) => deflateRawSync(Buffer.from(text), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const block = flushed(body);
  const data = Buffer.concat([flushed(head), ...Array.from({ length: times }, () => block), deflateRawSync(Buffer.from(tail))]);
  return { data, size: Buffer.byteLength(head) + Buffer.byteLength(body) * times + Buffer.byteLength(tail) };
}

/**
 * A zip of `parts` exactly as given: sizes as declared, however far from the truth. CRCs are left at 0;
 * JSZip (and so mammoth and exceljs) does not check them unless asked, and Parley must stop before it would.
 */
export function writeZip(parts: readonly ZipPart[]): Buffer {
  const locals: Uint8Array[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const method = part.method === 'stored' ? 0 : 8;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0x21, 12);
    local.writeUInt32LE(part.data.length, 18);
    local.writeUInt32LE(part.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(part.data.length, 20);
    central.writeUInt32LE(part.declaredSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, part.data);
    directory.push(central, name);
    offset += local.length + name.length + part.data.length;
  }
  const directorySize = directory.reduce((total, buffer) => total + buffer.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directorySize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...directory, end]);
}

const stored = (name: string, text: string): ZipPart => {
  const data = Buffer.from(text);
  return { name, data, method: 'stored', declaredSize: data.length };
};

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
  '</Types>';

const PACKAGE_RELATIONSHIPS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
  '</Relationships>';

const DOCUMENT_HEAD =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>';
const DOCUMENT_TAIL = '</w:body></w:document>';

/** A DOCX whose body is `paragraph` (WordprocessingML) `times` times; `declaredSize` overrides the honest size. */
export function docxBomb(paragraph: string, times: number, declaredSize?: number): Buffer {
  const document = deflateRepeated(DOCUMENT_HEAD, paragraph, times, DOCUMENT_TAIL);
  return writeZip([
    stored('[Content_Types].xml', CONTENT_TYPES),
    stored('_rels/.rels', PACKAGE_RELATIONSHIPS),
    { name: 'word/document.xml', data: document.data, method: 'deflated', declaredSize: declaredSize ?? document.size },
  ]);
}

/** `count` paragraphs of `text` in WordprocessingML, as one string (to repeat with {@link docxBomb}). */
export const paragraphs = (text: string, count: number): string => `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`.repeat(count);
