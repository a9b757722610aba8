import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import JSZip from 'jszip';
import { FIXTURES } from './datasources.js';

/** Words in the body of the DOCX fixture the report repeats. */
const FIXTURE_WORDS = 137;

/**
 * A Word report of about `pages` pages of 500 words, written to `directory`: the DOCX fixture's body (headings,
 * lists, a table) repeated, so it has the markup of a real document, about 1,100 XML elements a page.
 */
export async function writeLongReport(directory: string, pages: number): Promise<string> {
  const zip = await JSZip.loadAsync(await readFile(path.join(FIXTURES, 'docx-summer-activities.docx')));
  const document = await zip.file('word/document.xml')!.async('string');
  const start = document.indexOf('<w:body>') + '<w:body>'.length;
  const end = document.lastIndexOf('<w:sectPr');
  const body = document.slice(start, end).repeat(Math.ceil((pages * 500) / FIXTURE_WORDS));
  zip.file('word/document.xml', document.slice(0, start) + body + document.slice(end));
  const file = path.join(directory, `report-${pages}-pages.docx`);
  await writeFile(file, await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' }));
  return file;
}
