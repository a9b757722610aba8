/** The parts of a pdf.js text item that layout needs; positions are in PDF units, origin bottom-left. */
export interface PdfTextItem {
  str: string;
  x: number;
  y: number;
  width: number;
  fontSize: number;
  hasEOL: boolean;
}

interface Line {
  y: number;
  fontSize: number;
  text: string;
  end: number;
}

/**
 * Rebuilds lines and paragraphs from positioned text items. pdf.js gives runs of glyphs, not words: a gap
 * between runs on one baseline is a space, a new baseline is a new line, and a gap between lines clearly
 * wider than the line spacing (or a jump back up the page, as at a column break) is a new paragraph.
 */
export function pageText(items: readonly PdfTextItem[]): string {
  const lines = toLines(items);
  const paragraphs: string[][] = [];
  lines.forEach((line, i) => {
    const previous = lines[i - 1];
    const current = paragraphs.at(-1);
    if (!previous || !current || startsParagraph(previous, line)) paragraphs.push([line.text]);
    else current.push(line.text);
  });
  return paragraphs.map((lines) => lines.join('\n')).join('\n\n');
}

function toLines(items: readonly PdfTextItem[]): Line[] {
  const lines: Line[] = [];
  let lineEnded = true;
  for (const item of items) {
    const line = lines.at(-1);
    if (item.str === '') {
      lineEnded ||= item.hasEOL;
      continue;
    }
    if (!line || lineEnded || !sameBaseline(line, item)) lines.push(newLine(item));
    else appendToLine(line, item);
    lineEnded = item.hasEOL;
  }
  return lines.filter((line) => line.text.trim() !== '');
}

function newLine(item: PdfTextItem): Line {
  return { y: item.y, fontSize: item.fontSize, text: item.str, end: item.x + item.width };
}

function appendToLine(line: Line, item: PdfTextItem): void {
  const gap = item.x - line.end;
  const size = Math.max(line.fontSize, item.fontSize);
  const spaced = /\s$/.test(line.text) || /^\s/.test(item.str);
  // A small gap is kerning inside a word; going backwards means overlapping runs, which still read as two words.
  if (!spaced && (gap > size * 0.15 || gap < -size)) line.text += ' ';
  line.text += item.str;
  line.end = item.x + item.width;
  line.fontSize = Math.max(line.fontSize, item.fontSize);
}

// Superscripts and subscripts sit a little off the baseline but belong to the line.
function sameBaseline(line: Line, item: PdfTextItem): boolean {
  return Math.abs(line.y - item.y) <= Math.max(line.fontSize, item.fontSize) * 0.5;
}

function startsParagraph(previous: Line, line: Line): boolean {
  const size = Math.max(previous.fontSize, line.fontSize);
  const drop = previous.y - line.y;
  const sizeChanged = Math.abs(previous.fontSize - line.fontSize) > size * 0.2;
  return drop > size * 1.6 || drop < -size * 0.5 || sizeChanged;
}
