import type { DocumentSection } from '../document.js';
import type { ParsedContent } from './document-parser.js';
import { normalizeText } from './normalize-text.js';
import { readOfficeFile } from './office-file.js';
import type { OoxmlPackage } from './ooxml-package.js';
import type { ParseLimits } from './parse-limits.js';
import { openPackage, readCoreTitle, readPart, readRelationships } from './ooxml-package.js';
import { slideText } from './slide-text.js';
import { damaged, readingAs, tooManyPages } from './unreadable.js';
import { childElements, findFirst } from './xml-tree.js';

const PRESENTATION = 'ppt/presentation.xml';

/** One section per slide, numbered in presentation order, with the slide's title as its heading and notes appended. */
export async function parsePptx(filePath: string, limits: ParseLimits): Promise<ParsedContent> {
  const bytes = await readOfficeFile(filePath, 'pptx', limits);
  return readingAs('PPTX', async () => {
    const pkg = await openPackage(bytes);
    const slidePaths = await slideOrder(pkg);
    if (slidePaths.length > limits.pages) throw tooManyPages(slidePaths.length, 'slides', limits.pages);
    const sections: DocumentSection[] = [];
    for (const [index, slidePath] of slidePaths.entries()) {
      const section = await readSlide(pkg, slidePath, index + 1);
      if (section) sections.push(section);
    }
    const firstTitle = sections.find((section) => section.headings)?.headings?.[0];
    return { sections, totalPages: slidePaths.length, title: (await readCoreTitle(pkg)) ?? firstTitle };
  });
}

// Zip order is not slide order: the presentation lists slide ids, and its relationships map them to parts.
async function slideOrder(pkg: OoxmlPackage): Promise<string[]> {
  const presentation = await readPart(pkg, PRESENTATION);
  if (!presentation) throw damaged('PPTX');
  const relationships = await readRelationships(pkg, PRESENTATION);
  const list = findFirst(presentation, 'p:sldIdLst');
  const ids = list ? childElements(list, 'p:sldId').map((slide) => slide.attributes['r:id'] ?? '') : [];
  return ids.flatMap((id) => relationships.get(id)?.target ?? []);
}

async function readSlide(pkg: OoxmlPackage, slidePath: string, pageNumber: number): Promise<DocumentSection | undefined> {
  const slide = await readPart(pkg, slidePath);
  if (!slide) return undefined;
  const { title, blocks } = slideText(slide);
  const notes = await readNotes(pkg, slidePath);
  if (notes) blocks.push(`Notes: ${notes}`);
  const text = normalizeText(blocks.join('\n\n'));
  if (!text) return undefined;
  return title ? { text, pageNumber, headings: [title] } : { text, pageNumber };
}

async function readNotes(pkg: OoxmlPackage, slidePath: string): Promise<string> {
  const relationships = await readRelationships(pkg, slidePath);
  const notesPath = [...relationships.values()].find((rel) => rel.type === 'notesSlide')?.target;
  const notes = notesPath ? await readPart(pkg, notesPath) : undefined;
  return notes ? slideText(notes).blocks.join('\n') : '';
}
