import { tableRowText } from './render-rows.js';
import type { XmlElement } from './xml-tree.js';
import { childElements, findAll, findFirst, textContent } from './xml-tree.js';

const TITLE_PLACEHOLDERS = new Set(['title', 'ctrTitle']);
// Slide numbers, dates, footers and the slide thumbnail on a notes page repeat on every slide and say nothing.
const BOILERPLATE_PLACEHOLDERS = new Set(['sldNum', 'dt', 'ftr', 'hdr', 'sldImg']);

export interface SlideText {
  title?: string;
  /** Each shape or table as a block, in the order they are drawn. */
  blocks: string[];
}

/** The text of a slide (or notes page): shapes in drawing order, paragraphs as lines, tables as rows. */
export function slideText(slide: XmlElement): SlideText {
  const result: SlideText = { blocks: [] };
  const tree = findFirst(slide, 'p:spTree');
  if (tree) collect(tree, result);
  return result;
}

function collect(element: XmlElement, result: SlideText): void {
  for (const child of childElements(element)) {
    if (child.name === 'p:sp') addShape(child, result);
    else if (child.name === 'a:tbl') addBlock(tableText(child), result);
    // Alternate content repeats the same shapes for older readers.
    else if (child.name !== 'mc:Fallback') collect(child, result);
  }
}

function addShape(shape: XmlElement, result: SlideText): void {
  const placeholder = findFirst(shape, 'p:ph')?.attributes.type;
  if (placeholder && BOILERPLATE_PLACEHOLDERS.has(placeholder)) return;
  const body = findFirst(shape, 'p:txBody');
  const text = body ? paragraphs(body).join('\n') : '';
  if (placeholder && TITLE_PLACEHOLDERS.has(placeholder) && !result.title && text) result.title = text.replace(/\s+/g, ' ');
  addBlock(text, result);
}

function addBlock(text: string, result: SlideText): void {
  if (text.trim()) result.blocks.push(text);
}

function paragraphs(body: XmlElement): string[] {
  return findAll(body, 'a:p')
    .map(paragraphText)
    .filter((line) => line.trim() !== '');
}

// Runs and fields carry text in <a:t>; a soft line break is <a:br/>.
function paragraphText(paragraph: XmlElement): string {
  return childElements(paragraph)
    .map((child) => {
      if (child.name === 'a:br') return '\n';
      if (child.name !== 'a:r' && child.name !== 'a:fld') return '';
      return childElements(child, 'a:t').map(textContent).join('');
    })
    .join('');
}

function tableText(table: XmlElement): string {
  return findAll(table, 'a:tr')
    .map((row) =>
      tableRowText(
        childElements(row, 'a:tc')
          // Cells covered by a merge are placeholders; the merged text is in the first cell.
          .filter((cell) => cell.attributes.hMerge !== '1' && cell.attributes.vMerge !== '1')
          .map((cell) => paragraphs(cell).join(' ')),
      ),
    )
    .filter(Boolean)
    .join('\n');
}
