import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentKind, ParsedDocument } from '../../src/rag/ingest/document.js';
import { UnreadableDocumentError } from '../../src/rag/ingest/document.js';
import { parseDocument } from '../../src/rag/ingest/parse/index.js';
import { DOCS_DIR } from '../support/fixtures.js';
import { checkPackageSize } from '../../src/rag/ingest/parse/check-package-size.js';
import { PARSE_LIMITS, type ParseLimits } from '../../src/rag/ingest/parse/parse-limits.js';
import { writeLongReport } from '../support/long-report.js';
import { docxBomb, paragraphs } from '../support/zip-bombs.js';

const FIXTURES = DOCS_DIR;
const fixture = (name: string): string => path.join(FIXTURES, name);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'parley-parse-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, content: string | Uint8Array): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, content);
  return file;
}

/** The error a parse fails with, checked to be the readable kind, with no library wording in it. */
async function unreadable(filePath: string, kind: DocumentKind, limits?: ParseLimits): Promise<UnreadableDocumentError> {
  const error: unknown = await parseDocument(filePath, kind, limits).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UnreadableDocumentError);
  const message = (error as Error).message;
  expect(message).not.toMatch(/exception|undefined|null|central directory|\bat \w+ \(|position \d/i);
  return error as UnreadableDocumentError;
}

const allText = (document: ParsedDocument): string => document.sections.map((section) => section.text).join('\n\n');
const sectionUnder = (document: ParsedDocument, ...headings: string[]) =>
  document.sections.find((section) => JSON.stringify(section.headings) === JSON.stringify(headings));

describe('PDF', () => {
  it('reads a one-page memo as one page with its exact sentences', async () => {
    const memo = await parseDocument(fixture('pdf-memo-1p.pdf'), 'pdf');
    expect(memo.kind).toBe('pdf');
    expect(memo.totalPages).toBe(1);
    expect(memo.sections).toHaveLength(1);
    expect(memo.sections[0]?.pageNumber).toBe(1);
    const text = memo.sections[0]?.text ?? '';
    expect(text).toContain('There were 20,000 bottles of water, 10,000 blankets, and 200 laptops delivered on January 23,');
    expect(text).toContain('A total of 3 trucks were used for 15 hours.');
    expect(text).toContain('To Whom it May Concern:\n\nThere were');
  });

  it('gives one section per page, numbered, with each page’s own text', async () => {
    const history = await parseDocument(fixture('pdf-word-processor-history-5p.pdf'), 'pdf');
    expect(history.totalPages).toBe(5);
    expect(history.sections.map((section) => section.pageNumber)).toEqual([1, 2, 3, 4, 5]);
    expect(history.sections[0]?.text).toMatch(/^The Evolution of the Word Processor\n\n/);
    expect(history.sections[2]?.text).toContain('Specialized Word Processing Tools');
    expect(history.sections[2]?.text).toContain('Tools like LaTeX gained popularity among');
    expect(history.sections[0]?.text).not.toContain('Specialized Word Processing Tools');
    // Lines are whole lines, neither glued into one nor split word by word.
    const lines = allText(history).split('\n').filter(Boolean);
    const wordsPerLine = lines.reduce((sum, line) => sum + line.split(' ').length, 0) / lines.length;
    expect(wordsPerLine).toBeGreaterThan(6);
    expect(wordsPerLine).toBeLessThan(20);
  });

  it('keeps words apart in a two-column academic paper and drops control characters', async () => {
    const paper = await parseDocument(fixture('pdf-arxiv-layoutparser-2p.pdf'), 'pdf');
    expect(paper.sections).toHaveLength(2);
    expect(paper.sections[0]?.text).toContain('LayoutParser: A Unified Toolkit for Deep\nLearning Based Document Image Analysis');
    expect(paper.sections[0]?.text).toContain('Abstract. Recent advances in document image analysis (DIA) have been');
    expect(allText(paper)).not.toContain('\u0000');
  });

  it('says a password-protected PDF needs its password removed', async () => {
    const error = await unreadable(fixture('pdf-password-protected.pdf'), 'pdf');
    expect(error.message).toBe('This PDF is password-protected; upload a copy without a password');
  });

  it('says a truncated or garbled PDF is damaged', async () => {
    const memo = await readFile(fixture('pdf-memo-1p.pdf'));
    const truncated = await write('truncated.pdf', memo.subarray(0, 3000));
    expect((await unreadable(truncated, 'pdf')).message).toBe('The file is damaged or not a valid PDF file');
    const garbled = await write('garbled.pdf', '%PDF-1.7\nthis is not really a PDF\n');
    expect((await unreadable(garbled, 'pdf')).message).toMatch(/damaged/);
  });

  it('says a PDF without text may be a scan', async () => {
    const blank = await write(
      'blank.pdf',
      '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n' +
        '3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
    );
    expect((await unreadable(blank, 'pdf')).message).toBe('The document contains no text (is it a scanned image?)');
  });
});

describe('DOCX', () => {
  it('sections the text under its headings, with lists and table rows', async () => {
    const doc = await parseDocument(fixture('docx-summer-activities.docx'), 'docx');
    const swim = sectionUnder(doc, 'Let’s swim!');
    expect(swim?.text).toContain('To get started with swimming, first lay down in a water and try not to drown:\n\n');
    expect(swim?.text).toContain('- You can relax and look around\n- Paddle about\n- Enjoy summer warmth');
    expect(swim?.text).toContain('1. Wear sunglasses\n2. Don’t forget to drink water\n3. Use sun cream');
    const eat = sectionUnder(doc, 'Let’s swim!', 'Let’s eat');
    expect(eat?.text).toContain('Leaves | Ash, Elm, Maple | 50\nBerries | Blueberry, Strawberry, Cranberry | 150');
    expect(doc.title).toBe('Swimming in the lake');
    expect(allText(doc)).not.toContain('data:image');
  });

  it('says a damaged DOCX is damaged', async () => {
    const docx = await readFile(fixture('docx-summer-activities.docx'));
    const truncated = await write('truncated.docx', docx.subarray(0, 20_000));
    expect((await unreadable(truncated, 'docx')).message).toBe('The file is damaged or not a valid DOCX file');
    const notWord = await write('not-word.docx', await new JSZip().file('hello.txt', 'hi').generateAsync({ type: 'uint8array' }));
    expect((await unreadable(notWord, 'docx')).message).toBe('The file is damaged or not a valid DOCX file');
  });

  it('says an encrypted Office file needs its password removed', async () => {
    const encrypted = await write('secret.docx', encryptedOfficeFile());
    expect((await unreadable(encrypted, 'docx')).message).toBe('This DOCX is password-protected; upload a copy without a password');
    expect((await unreadable(encrypted, 'xlsx')).message).toMatch(/This XLSX is password-protected/);
  });
});

describe('PPTX', () => {
  it('gives one section per slide with titles, bullets, tables and notes', async () => {
    const deck = await parseDocument(fixture('pptx-sample-deck.pptx'), 'pptx');
    expect(deck.totalPages).toBe(3);
    expect(deck.sections.map((section) => section.pageNumber)).toEqual([1, 2, 3]);
    const [first, second, third] = deck.sections;
    expect(first?.headings).toEqual(['Test Table Slide']);
    expect(first?.text).toContain('With footnote');
    expect(first?.text).toContain('| A merged with B | C | A | B | C');
    expect(second?.headings).toEqual(['Second slide title']);
    expect(second?.text).toContain('Let’s introduce a list\nWith foo\nBar\nAnd baz things');
    expect(second?.text).toContain('A rectangle shape with this text inside.');
    expect(second?.text).toContain('Notes: Some notes on the second slide.');
    expect(third?.text).toContain('List item4\nList item5\nList item6');
    expect(third?.text).toContain('Notes: Final notes on the third slide.');
  });

  it('numbers slides in presentation order, not zip order', async () => {
    const zip = await JSZip.loadAsync(await readFile(fixture('pptx-sample-deck.pptx')));
    const presentation = await zip.file('ppt/presentation.xml')!.async('string');
    const reversed = presentation.replace(
      /<p:sldIdLst>(.*?)<\/p:sldIdLst>/,
      (_, list: string) => `<p:sldIdLst>${(list.match(/<p:sldId [^>]*\/>/g) ?? []).reverse().join('')}</p:sldIdLst>`,
    );
    zip.file('ppt/presentation.xml', reversed);
    const file = await write('reordered.pptx', await zip.generateAsync({ type: 'uint8array' }));
    const deck = await parseDocument(file, 'pptx');
    expect(deck.sections.map((section) => section.pageNumber)).toEqual([1, 2, 3]);
    expect(deck.sections[0]?.text).toContain('List item4');
    expect(deck.sections[2]?.headings).toEqual(['Test Table Slide']);
  });
});

describe('XLSX', () => {
  it('gives one section per sheet, pairing cells with their column headers', async () => {
    const workbook = new ExcelJS.Workbook();
    const people = workbook.addWorksheet('People');
    people.addRow(['Name', 'City', 'Born']);
    people.addRow(['Ada', 'Paris', new Date(Date.UTC(1815, 11, 10))]);
    people.addRow(['Grace', { richText: [{ text: 'New ' }, { text: 'York' }] }, 1906]);
    people.addRow(['Total', { formula: '1+1', result: 2 }]);
    const numbers = workbook.addWorksheet('Numbers');
    numbers.addRow([1, 2, 3]);
    numbers.addRow([4, 5, 6]);
    const file = path.join(dir, 'book.xlsx');
    await workbook.xlsx.writeFile(file);

    const book = await parseDocument(file, 'xlsx');
    expect(book.totalPages).toBe(2);
    expect(book.sections[0]).toEqual({
      text: 'Name: Ada; City: Paris; Born: 1815-12-10\nName: Grace; City: New York; Born: 1906\nName: Total; City: 2',
      pageNumber: 1,
      headings: ['People'],
    });
    expect(book.sections[1]).toEqual({ text: '1 | 2 | 3\n4 | 5 | 6', pageNumber: 2, headings: ['Numbers'] });
  });

  it('says a damaged XLSX is damaged', async () => {
    const file = await write('broken.xlsx', 'PK\u0003\u0004 not really a zip');
    expect((await unreadable(file, 'xlsx')).message).toBe('The file is damaged or not a valid XLSX file');
  });
});

describe('CSV', () => {
  it('keeps quoted commas inside their field', async () => {
    const customers = await parseDocument(fixture('csv-customers-comma.csv'), 'csv');
    const lines = allText(customers).split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[1]).toContain('First Name: Preston; Last Name: Lozano, Dr; Company: Vega-Gentry; City: East Jimmychester');
    expect(lines[3]).toContain('Company: Dominguez, Mcmillan and Donovan');
  });

  it('detects semicolons, tabs and pipes, with quoted delimiters and newlines', async () => {
    const semicolon = await write('semi.csv', 'Name;City;Quote\nAda;"Paris; France";"She said ""hi"""\nBob;Lyon;\n');
    expect(allText(await parseDocument(semicolon, 'csv'))).toBe('Name: Ada; City: Paris; France; Quote: She said "hi"\nName: Bob; City: Lyon');
    const tab = await write('tab.tsv', 'Name\tNotes\tAge\nAda\t"line one\nline two"\t36\nBob\tplain\t40\n');
    expect(allText(await parseDocument(tab, 'csv'))).toBe('Name: Ada; Notes: line one line two; Age: 36\nName: Bob; Notes: plain; Age: 40');
    const pipe = await write('pipe.csv', 'id|label\n1|one\n2|two\n');
    expect(allText(await parseDocument(pipe, 'csv'))).toBe('id: 1; label: one\nid: 2; label: two');
  });

  it('joins cells with bars when the first row is data, not a header', async () => {
    const file = await write('numbers.csv', '1,2,3\n4,5,6\n');
    expect(allText(await parseDocument(file, 'csv'))).toBe('1 | 2 | 3\n4 | 5 | 6');
  });

  it('says where a quoted field is never closed', async () => {
    const file = await write('unclosed.csv', 'a,b\n1,"never closed\n2,3\n');
    expect((await unreadable(file, 'csv')).message).toMatch(/quoted field that is never closed/);
  });
});

describe('plain text', () => {
  it('decodes UTF-16LE with a byte-order mark', async () => {
    const text = allText(await parseDocument(fixture('txt-utf16le-bom.txt'), 'txt'));
    expect(text).toBe(
      'This is a test document to use for unit tests.\n\nDoylestown, PA 18901\n\nImportant points:\n\n' +
        '- Hamburgers are delicious\n- Dogs are the best\n- I love fuzzy blankets',
    );
  });

  it('keeps non-Latin scripts intact', async () => {
    const text = allText(await parseDocument(fixture('txt-udhr-article1-multilingual.txt'), 'txt'));
    for (const sentence of [
      '是人都生而自由，在尊严和权利上一律平等。',
      'يولد جميع الناس أحرارًا متساوين في الكرامة والحقوق.',
      'כל בני אדם נולדו בני חורין ושווים בערכם ובזכויותיהם.',
      'すべての人間は、生まれながらにして自由であり、',
      '모든 인간은 태어날 때부터 자유로우며',
      'Все люди рождаются свободными и равными',
    ]) {
      expect(text).toContain(sentence.normalize('NFC'));
    }
  });

  it('keeps paragraphs and line breaks of prose', async () => {
    const text = allText(await parseDocument(fixture('txt-war-and-peace-ch1.txt'), 'txt'));
    expect(text).toMatch(/^CHAPTER I\n\n"Well, Prince, so Genoa and Lucca are now just family estates of the\nBuonapartes\./);
    expect(text).toContain('It was in July, 1805, and the speaker was the well-known Anna Pavlovna');
    expect(text).not.toMatch(/\n{3}/);
  });

  it('guesses legacy encodings and reads UTF-16BE and UTF-8 with a byte-order mark', async () => {
    const sentence = 'Le café coûte 3 € — « très » cher, déjà vu.\nÇa coûte “cher”.';
    const cp1252 = await write('cp1252.txt', iconv.encode(sentence, 'windows-1252'));
    expect(allText(await parseDocument(cp1252, 'txt'))).toBe(sentence);
    const sjis = await write('sjis.txt', iconv.encode('これは日本語のテキストです。東京は日本の首都です。', 'shift_jis'));
    expect(allText(await parseDocument(sjis, 'txt'))).toBe('これは日本語のテキストです。東京は日本の首都です。');
    const utf16be = await write('be.txt', iconv.encode('Grüße aus Zürich', 'utf-16be', { addBOM: true }));
    expect(allText(await parseDocument(utf16be, 'txt'))).toBe('Grüße aus Zürich');
    const bom = await write('bom.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('naïve')]));
    expect(allText(await parseDocument(bom, 'txt'))).toBe('naïve');
  });

  it('collapses spaces, drops control characters and keeps at most one blank line', async () => {
    const file = await write('messy.txt', 'one \u0000two\t\t three  \r\n\r\n\r\n\r\nfour\u0007\u00a0five   \n  six');
    expect(allText(await parseDocument(file, 'txt'))).toBe('one two three\n\nfour five\nsix');
  });

  it('says an empty or blank file contains no text', async () => {
    const file = await write('blank.txt', ' \n\n \t\n');
    expect((await unreadable(file, 'txt')).message).toBe('The document contains no text');
  });
});

describe('Markdown', () => {
  it('splits at headings and records the heading path', async () => {
    const wiki = await parseDocument(fixture('md-ibm-wiki.md'), 'markdown');
    expect(wiki.title).toBe('IBM');
    expect(wiki.sections[0]?.headings).toEqual(['IBM']);
    expect(wiki.sections[0]?.text).toMatch(/^International Business Machines Corporation \(using the trademark IBM\)/);
    expect(sectionUnder(wiki, 'IBM', '1910s–1950s')?.text).toContain('Julius E. Pitrap patented the computing scale in 1885');
    expect(sectionUnder(wiki, 'IBM', '1960s–1980s')?.text).toContain('In 1961, IBM developed the SABRE reservation system');
  });

  it('keeps fenced code verbatim and never reads markup inside a fence', async () => {
    const code = await parseDocument(fixture('md-codeblocks.md'), 'markdown');
    expect(code.sections.map((section) => section.headings)).toEqual([['HTML Example'], ['XML Example']]);
    expect(code.sections[0]?.text).toBe(
      [
        '<!DOCTYPE html>',
        '<html lang="en">',
        '<head>',
        '    <meta charset="UTF-8">',
        '    <meta name="viewport" content="width=device-width, initial-scale=1.0">',
        '    <title>Sample HTML</title>',
        '</head>',
        '<body>',
        '    <h1>Hello, World!</h1>',
        '    <p>This is a simple HTML example.</p>',
        '</body>',
        '</html>',
      ].join('\n'),
    );
    expect(code.sections[1]?.text.match(/<body>Don't forget me this weekend!<\/body>/g)).toHaveLength(2);
  });

  it('strips link and emphasis syntax so the text reads naturally', async () => {
    const file = await write(
      'inline.md',
      '---\ntitle: "Guide"\n---\nSetup\n=====\n\nRead [the docs](https://example.com/docs "Docs") and **do not** skip _this_ step; ' +
        'run `rm -rf *_tmp_*` \\*carefully\\*.\n\n* first\n* second\n\n> quoted <b>bold</b>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n# Next\n\n```\n# not a heading\n```\n',
    );
    const doc = await parseDocument(file, 'markdown');
    expect(doc.title).toBe('Guide');
    expect(doc.sections).toEqual([
      {
        headings: ['Setup'],
        text: 'Read the docs and do not skip this step; run rm -rf *_tmp_* *carefully*.\n\n- first\n- second\n\nquoted bold\n\na | b\n1 | 2',
      },
      { headings: ['Next'], text: '# not a heading' },
    ]);
  });
});

describe('HTML', () => {
  it('keeps the article of a saved Wikipedia page and leaves out its navigation', async () => {
    const duck = await parseDocument(fixture('html-wikipedia-duck.html'), 'html');
    expect(duck.title).toBe('Duck - Wikipedia');
    const text = allText(duck);
    expect(text).toContain('Duck is the common name for numerous species of waterfowl in the family Anatidae.');
    expect(sectionUnder(duck, 'Behaviour', 'Feeding')?.text).toContain(
      'Ducks eat food sources such as grasses, aquatic plants, fish, insects, small amphibians, worms, and small molluscs.',
    );
    for (const boilerplate of ['Privacy policy', 'Jump to navigation', 'Jump to content', 'Main page', 'Create account']) {
      expect(text).not.toContain(boilerplate);
    }
  });

  it('falls back to the body without scripts, styles, navigation or footer; honours the declared charset', async () => {
    const page =
      '<!DOCTYPE html><html><head><meta charset="windows-1252"><title>Caf\u00e9 menu</title><style>p { color: red }</style></head>' +
      '<body><nav><a href="/">Home</a> <a href="/about">About us</a></nav><h1>Menu</h1><p>Our caf\u00e9 serves <b>cr\u00e8me</b> br\u00fbl\u00e9e.</p>' +
      '<ul><li>Tea</li><li>Coffee</li></ul><table><tr><th>Item</th><th>Price</th></tr><tr><td>Tea</td><td>2 \u20ac</td></tr></table>' +
      '<script>alert("hi")</script><footer>Copyright footer</footer></body></html>';
    const file = await write('menu.html', iconv.encode(page, 'windows-1252'));
    const menu = await parseDocument(file, 'html');
    expect(menu.title).toBe('Café menu');
    expect(menu.sections).toEqual([{ headings: ['Menu'], text: 'Our café serves crème brûlée.\n\n- Tea\n- Coffee\n\nItem | Price\nTea | 2 €' }]);
  });
});

describe('JSON', () => {
  it('flattens objects into key paths and gives each record its own block', async () => {
    const file = await write(
      'data.json',
      JSON.stringify({
        name: 'Parley',
        tags: ['rag', 'chat'],
        owner: { name: 'Ada', address: { city: 'Paris' } },
        users: [{ name: 'Ada', age: 36 }, { name: 'Bob' }],
      }),
    );
    expect(allText(await parseDocument(file, 'json'))).toBe(
      'name: Parley\ntags: rag, chat\nowner.name: Ada\nowner.address.city: Paris\n\nusers.name: Ada\nusers.age: 36\n\nusers.name: Bob',
    );
    const lines = await write('data.jsonl', '{"id": 1, "text": "first"}\n{"id": 2, "text": "second"}\n');
    expect(allText(await parseDocument(lines, 'json'))).toBe('id: 1\ntext: first\n\nid: 2\ntext: second');
  });

  it('says invalid JSON is invalid', async () => {
    const file = await write('broken.json', '{\n  "name": "Parley",\n  "tags": [\n');
    expect((await unreadable(file, 'json')).message).toMatch(/^The file is not valid JSON/);
  });
});

describe('limits', () => {
  const MiB = 1024 * 1024;
  const lower = (limits: Partial<ParseLimits>): ParseLimits => ({ ...PARSE_LIMITS, ...limits });
  const timed = async <T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> => {
    const start = performance.now();
    const value = await work();
    return { value, ms: performance.now() - start };
  };

  it('refuses a 1 MB DOCX whose part inflates to 1 GiB from its declared size, inflating nothing', async () => {
    const bomb = docxBomb(paragraphs('a'.repeat(MiB - 36), 1), 1024);
    expect(bomb.length).toBeLessThan(1.1 * MiB);
    const file = await write('gigabyte.docx', bomb);
    const { value: error, ms } = await timed(() => unreadable(file, 'docx'));
    expect(error.message).toBe(
      'The DOCX file expands to 1,024 MB when unzipped, more than Parley reads (at most 200 MB); split it into smaller documents',
    );
    expect(ms).toBeLessThan(500);
  });

  it('counts the bytes a part really inflates to: one claiming 40 KB that gives 400 MB is damaged', async () => {
    const file = await write('liar.docx', docxBomb(paragraphs('a'.repeat(MiB - 36), 1), 400, 40_000));
    const { value: error, ms } = await timed(() => unreadable(file, 'docx'));
    expect(error.message).toBe('The file is damaged or not a valid DOCX file');
    expect(ms).toBeLessThan(500);
  });

  it('counts XML elements as parts inflate and stops at the bound: 300 MB of tiny paragraphs claiming 100 MB', async () => {
    const bomb = docxBomb(paragraphs('a', 30_000), 286, 100 * MiB);
    expect(bomb.length).toBeLessThan(MiB);
    const file = await write('paragraphs.docx', bomb);
    const { value: error, ms } = await timed(() => unreadable(file, 'docx'));
    expect(error.message).toBe(
      'The DOCX file has over 500,000 XML elements (paragraphs, runs, cells…), more than Parley reads (at most 500,000 in one DOCX file); split it into smaller documents',
    );
    expect(ms).toBeLessThan(1_000);
  });

  it('refuses a package with more parts than the bound', async () => {
    const zip = await JSZip.loadAsync(await readFile(fixture('docx-summer-activities.docx')));
    for (let i = 0; i < 30; i++) zip.file(`customXml/item${i}.xml`, '<a/>');
    const file = await write('many-parts.docx', await zip.generateAsync({ type: 'uint8array' }));
    const parts = Object.keys(zip.files).length;
    expect((await unreadable(file, 'docx', lower({ packageEntries: parts - 1 }))).message).toBe(
      `The DOCX file has over ${parts - 1} parts, more than Parley reads (at most ${parts - 1} parts); split it into smaller documents`,
    );
    expect((await parseDocument(file, 'docx', lower({ packageEntries: parts }))).title).toBe('Swimming in the lake');
  });

  it('lets a 50,000-row workbook and a 300-page report through the package bounds', async () => {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path.join(dir, 'rows.xlsx'), useSharedStrings: true });
    const sheet = workbook.addWorksheet('Orders');
    sheet.addRow(Array.from({ length: 20 }, (_, column) => `Column ${column}`)).commit();
    for (let row = 0; row < 50_000; row++) {
      sheet.addRow(Array.from({ length: 20 }, (_, column) => (column % 2 ? row * column : `Customer ${row % 5000}`))).commit();
    }
    sheet.commit();
    await workbook.commit();
    await checkPackageSize(await readFile(path.join(dir, 'rows.xlsx')), 'xlsx', PARSE_LIMITS);
    await checkPackageSize(await readFile(await writeLongReport(dir, 300)), 'docx', PARSE_LIMITS);
  }, 30_000);

  it('refuses a CSV row wider than the column bound, and a CSV with more cells than the cell bound', async () => {
    const wide = await write('wide.csv', `${Array.from({ length: 40 }, (_, i) => `c${i}`).join(',')}\n1,2\n`);
    expect((await unreadable(wide, 'csv', lower({ tableColumns: 30 }))).message).toBe(
      'The document has a row of 40 columns, more than Parley reads (at most 30 columns); split it into smaller documents',
    );
    const customers = fixture('csv-customers-comma.csv');
    expect((await unreadable(customers, 'csv', lower({ tableCells: 20 }))).message).toBe(
      'The document has over 20 cells, more than Parley reads (at most 20 cells); split it into smaller documents',
    );
  });

  it('counts the empty cells a sheet would render: 20,000 rows holding A and XFD are 330 million cells', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Sparse').addRow(['a']);
    const zip = await JSZip.loadAsync(await workbook.xlsx.writeBuffer());
    const rows = Array.from({ length: 20_000 }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}"><v>1</v></c><c r="XFD${i + 1}"><v>2</v></c></row>`);
    const sheet = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
    zip.file('xl/worksheets/sheet1.xml', sheet.replace(/<sheetData>.*<\/sheetData>/, `<sheetData>${rows.join('')}</sheetData>`));
    const file = await write('sparse.xlsx', await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' }));
    const { value: error, ms } = await timed(() => unreadable(file, 'xlsx'));
    expect(error.message).toBe(
      'The document has over 5,000,000 cells, more than Parley reads (at most 5,000,000 cells); split it into smaller documents',
    );
    // Rendering the 330 million cells would take minutes; counting them is ~1 s, more on a loaded machine.
    expect(ms).toBeLessThan(10_000);
    expect((await unreadable(file, 'xlsx', lower({ tableColumns: 100 }))).message).toMatch(/^The document has a row of 16,384 columns/);
  });

  it('refuses PDFs, decks and workbooks with more pages, slides or sheets than the bound', async () => {
    expect((await unreadable(fixture('pdf-word-processor-history-5p.pdf'), 'pdf', lower({ pages: 4 }))).message).toBe(
      'The document has 5 pages, more than Parley reads (at most 4 pages); split it into smaller documents',
    );
    expect((await unreadable(fixture('pptx-sample-deck.pptx'), 'pptx', lower({ pages: 2 }))).message).toMatch(
      /^The document has 3 slides, more than Parley reads \(at most 2 slides\)/,
    );
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('One').addRow(['a']);
    workbook.addWorksheet('Two').addRow(['b']);
    const file = path.join(dir, 'two-sheets.xlsx');
    await workbook.xlsx.writeFile(file);
    expect((await unreadable(file, 'xlsx', lower({ pages: 1 }))).message).toMatch(/^The document has 2 sheets/);
  });

  it('refuses a document with more text than the bound, a PDF at the first page past it', async () => {
    const message =
      'The document holds over 1,000 characters of text, more than Parley reads (at most 1,000 characters); split it into smaller documents';
    expect((await unreadable(fixture('txt-war-and-peace-ch1.txt'), 'txt', lower({ textChars: 1_000 }))).message).toBe(message);
    expect((await unreadable(fixture('pdf-word-processor-history-5p.pdf'), 'pdf', lower({ textChars: 1_000 }))).message).toBe(message);
  });
});

/** A stand-in for what Office writes when a document is saved with a password: a compound file holding an EncryptedPackage stream. */
function encryptedOfficeFile(): Uint8Array {
  const file = Buffer.alloc(4096);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(file, 0);
  Buffer.from('EncryptionInfo', 'utf16le').copy(file, 1024);
  Buffer.from('EncryptedPackage', 'utf16le').copy(file, 1152);
  return file;
}
