import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentKind } from '../../src/rag/ingest/document.js';
import { sniffDocumentKind } from '../../src/rag/ingest/parse/index.js';
import { DOCS_DIR } from '../support/fixtures.js';

const FIXTURES = DOCS_DIR;

// Every fixture is recognised from its content alone: none of them needs its name.
const FIXTURE_KINDS: ReadonlyArray<[string, DocumentKind]> = [
  ['pdf-arxiv-layoutparser-2p.pdf', 'pdf'],
  ['pdf-memo-1p.pdf', 'pdf'],
  ['pdf-password-protected.pdf', 'pdf'],
  ['pdf-arxiv-otsl-page9-table.pdf', 'pdf'],
  ['pdf-word-processor-history-5p.pdf', 'pdf'],
  ['docx-summer-activities.docx', 'docx'],
  ['pptx-sample-deck.pptx', 'pptx'],
  ['html-wikipedia-duck.html', 'html'],
  ['md-ibm-wiki.md', 'markdown'],
  ['md-codeblocks.md', 'markdown'],
  ['csv-customers-comma.csv', 'csv'],
  ['txt-war-and-peace-ch1.txt', 'txt'],
  ['txt-utf16le-bom.txt', 'txt'],
  ['txt-udhr-article1-multilingual.txt', 'txt'],
];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'parley-sniff-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let counter = 0;
async function write(content: string | Uint8Array): Promise<string> {
  const file = path.join(dir, `upload-${++counter}.bin`);
  await writeFile(file, content);
  return file;
}

describe('sniffing fixtures', () => {
  it.each(FIXTURE_KINDS)('%s is %s under its own name, a wrong name and no name', async (name, kind) => {
    const renamed = path.join(dir, `${name}.upload.bin`);
    await copyFile(path.join(FIXTURES, name), renamed);
    expect(await sniffDocumentKind(path.join(FIXTURES, name), name)).toBe(kind);
    expect(await sniffDocumentKind(renamed, 'upload.bin')).toBe(kind);
    expect(await sniffDocumentKind(renamed)).toBe(kind);
    const misleading = kind === 'pdf' ? 'report.docx' : 'report.pdf';
    expect(await sniffDocumentKind(renamed, misleading)).toBe(kind);
  });

  it('does not let a .txt name hide Markdown headings, CSV or HTML', async () => {
    expect(await sniffDocumentKind(path.join(FIXTURES, 'md-ibm-wiki.md'), 'notes.txt')).toBe('markdown');
    expect(await sniffDocumentKind(path.join(FIXTURES, 'csv-customers-comma.csv'), 'notes.txt')).toBe('csv');
    expect(await sniffDocumentKind(path.join(FIXTURES, 'html-wikipedia-duck.html'), 'notes.txt')).toBe('html');
  });
});

describe('sniffing generated documents', () => {
  it('recognises an XLSX written by exceljs', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Sheet').addRow(['a', 'b']);
    const file = path.join(dir, 'book.data');
    await workbook.xlsx.writeFile(file);
    expect(await sniffDocumentKind(file, 'book.data')).toBe('xlsx');
  });

  it.each<[string, string | Uint8Array, DocumentKind]>([
    ['JSON object', JSON.stringify({ name: 'Parley', tags: ['a'] }, null, 2), 'json'],
    ['JSON array of records', '[{"id": 1}, {"id": 2}]', 'json'],
    ['broken JSON (parsing explains it)', '{\n  "name": "Parley",\n', 'json'],
    ['JSON Lines', '{"id": 1}\n{"id": 2}\n', 'json'],
    ['semicolon CSV', 'Name;City\nAda;"Paris; France"\nBob;Lyon\nEve;Nice\n', 'csv'],
    ['tab CSV with quoted newlines', 'Name\tNotes\tAge\nAda\t"line one\nline two"\t36\nBob\tplain\t40\nEve\tx\t41\n', 'csv'],
    ['pipe CSV', 'id|label\n1|one\n2|two\n3|three\n', 'csv'],
    ['HTML fragment', '<p>Hello <b>world</b></p>', 'html'],
    [
      'XHTML with an XML declaration',
      '<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body><p>Hi</p></body></html>',
      'html',
    ],
    ['Markdown with a fence', 'Some text\n\n```js\nconst a = 1;\n```\n', 'markdown'],
    ['Markdown table', '| a | b |\n|---|---|\n| 1 | 2 |\n', 'markdown'],
    ['prose with commas', 'Hello, world. This is prose.\nIt has commas, here and there, but no table.\nThe end.\n', 'txt'],
    [
      'paragraphs with one comma each',
      'Lorem ipsum, dolor sit amet.\n\nConsectetur, adipiscing elit.\n\nSed do, eiusmod.\n\nTempor, incididunt.\n',
      'txt',
    ],
    ['a small CSV', 'a,b\n1,2\n3,4\n', 'csv'],
    ['windows-1252 text', iconv.encode('Le café coûte 5 €, déjà vu.\nÇa coûte cher.\n', 'windows-1252'), 'txt'],
    ['UTF-16BE text with BOM', iconv.encode('Grüße aus Zürich\n', 'utf-16be', { addBOM: true }), 'txt'],
    ['Shift_JIS text', iconv.encode('これは日本語のテキストです。\n', 'shift_jis'), 'txt'],
    ['tab-indented poem', '\tRoses are red\n\tViolets are blue\n\tSugar is sweet\n', 'txt'],
    ['an empty file (parsing then says it has no text)', '', 'txt'],
    ['text that begins like a bitmap', 'BMW reported record sales.\nThe rest is prose.\n', 'txt'],
    ['text that begins like an executable', 'MZ-80 computers were sold in Japan.\n', 'txt'],
    ['text that begins like an MP3 tag', 'ID3 tags describe songs.\n', 'txt'],
  ])('%s', async (_, content, kind) => {
    expect(await sniffDocumentKind(await write(content), 'upload.bin')).toBe(kind);
  });

  it('lets the name decide only between text kinds the content leaves open', async () => {
    const plain = await write('Just a sentence.\nAnd another.\n');
    expect(await sniffDocumentKind(plain, 'notes.md')).toBe('markdown');
    expect(await sniffDocumentKind(plain, 'notes.txt')).toBe('txt');
    expect(await sniffDocumentKind(plain)).toBe('txt');
    const looseList = await write('Read [the docs](https://example.com) and **then**:\n- install\n- run\n');
    expect(await sniffDocumentKind(looseList)).toBe('markdown');
    expect(await sniffDocumentKind(looseList, 'notes.txt')).toBe('txt');
    const twoRows = await write('a,b\n1,2\n');
    expect(await sniffDocumentKind(twoRows, 'data.csv')).toBe('csv');
    expect(await sniffDocumentKind(twoRows, 'data.txt')).toBe('txt');
  });
});

describe('refusing what Parley cannot read', () => {
  it.each<[string, Uint8Array]>([
    ['ELF executable', bytes([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00], 64)],
    ['Windows executable (MZ)', bytes([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00], 128)],
    ['Mach-O executable', bytes([0xcf, 0xfa, 0xed, 0xfe, 0x07, 0x00, 0x00, 0x01], 64)],
    ['PNG image', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52], 64)],
    ['JPEG image', bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00], 64)],
    ['gzip archive', bytes([0x1f, 0x8b, 0x08, 0x00], 64)],
    ['random binary', Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256)],
    ['SVG image', Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>')],
    ['legacy Word file (compound file, not encrypted)', compoundFile(false)],
    ['RTF document', Buffer.from('{\\rtf1\\ansi Hello}')],
    ['vCard', Buffer.from('BEGIN:VCARD\nVERSION:3.0\nFN:Ada\nEND:VCARD\n')],
  ])('%s', async (_, content) => {
    expect(await sniffDocumentKind(await write(content), 'document.docx')).toBeUndefined();
  });

  it('refuses a zip that is not an Office document', async () => {
    const zip = await new JSZip().file('readme.txt', 'hello').generateAsync({ type: 'uint8array' });
    expect(await sniffDocumentKind(await write(zip), 'archive.docx')).toBeUndefined();
  });

  it('takes an encrypted Office file’s kind from its name, so parsing can ask for the password to be removed', async () => {
    const encrypted = await write(compoundFile(true));
    expect(await sniffDocumentKind(encrypted, 'Budget.xlsx')).toBe('xlsx');
    expect(await sniffDocumentKind(encrypted, 'Plan.DOCX')).toBe('docx');
    expect(await sniffDocumentKind(encrypted, 'upload.bin')).toBeUndefined();
  });

  it('decides a large file on its head', async () => {
    // Text for the first 88 KiB, then a megabyte of NULs that would make the whole file look binary.
    const head = Buffer.from('plain words on a line\n'.repeat(4096));
    const file = await write(Buffer.concat([head, Buffer.alloc(1024 * 1024)]));
    expect(await sniffDocumentKind(file, 'big.txt')).toBe('txt');
  });
});

function bytes(magic: readonly number[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  out.set(magic);
  return out;
}

function compoundFile(encrypted: boolean): Uint8Array {
  const file = Buffer.alloc(4096);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(file, 0);
  Buffer.from(encrypted ? 'EncryptedPackage' : 'WordDocument', 'utf16le').copy(file, 1152);
  return file;
}
