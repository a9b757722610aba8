import mammoth from 'mammoth';
import type { ParsedContent } from './document-parser.js';
import { blocksFromHtml } from './html-blocks.js';
import { htmlFragment } from './html-document.js';
import { readOfficeFile } from './office-file.js';
import type { ParseLimits } from './parse-limits.js';
import { openPackage, readCoreTitle } from './ooxml-package.js';
import { sectionsFromBlocks } from './text-block.js';
import { collapseWhitespace } from './normalize-text.js';
import { readingAs } from './unreadable.js';

// Word's "Title" style is not a heading to mammoth; to a reader it is the top one.
const STYLE_MAP = ["p[style-name='Title'] => h1.docx-title:fresh"];

// Images become empty <img>s: their bytes would only be base64-encoded to be thrown away.
const dropImages = mammoth.images.imgElement(() => Promise.resolve({ src: '' }));

/** Word → HTML (mammoth keeps headings, lists and tables) → sections under their headings. */
export async function parseDocx(filePath: string, limits: ParseLimits): Promise<ParsedContent> {
  const bytes = await readOfficeFile(filePath, 'docx', limits);
  return readingAs('DOCX', async () => {
    const options = { styleMap: STYLE_MAP, convertImage: dropImages };
    const { value: html } = await mammoth.convertToHtml({ buffer: bytes }, options);
    const document = htmlFragment(html);
    const sections = document.body ? sectionsFromBlocks(blocksFromHtml(document.body)) : [];
    const titleParagraph = collapseWhitespace(document.querySelector('h1.docx-title')?.textContent ?? '');
    return { sections, title: (await readCoreTitle(await openPackage(bytes))) ?? (titleParagraph || undefined) };
  });
}
