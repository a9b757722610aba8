import type { DocumentSection } from '../document.js';
import { cleanCharacters, collapseWhitespace, normalizeText } from './normalize-text.js';

/** A parser's view of a document before sectioning: headings and the blocks of text under them, in order. */
export type TextBlock =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  /** Code and other preformatted text: spacing is meaning, so it is never collapsed. */
  | { kind: 'verbatim'; text: string };

interface OpenHeading {
  level: number;
  text: string;
}

/** Starts a new section at every heading; a section's `headings` is the path of headings above it. */
export function sectionsFromBlocks(blocks: Iterable<TextBlock>): DocumentSection[] {
  const sections: DocumentSection[] = [];
  let path: OpenHeading[] = [];
  let parts: string[] = [];
  const flush = (): void => {
    if (parts.length > 0) sections.push(section(parts.join('\n\n'), path));
    parts = [];
  };
  for (const block of blocks) {
    if (block.kind === 'heading') {
      const text = collapseWhitespace(block.text);
      if (!text) continue;
      flush();
      path = [...path.filter((open) => open.level < block.level), { level: block.level, text }];
      continue;
    }
    const text = block.kind === 'verbatim' ? trimBlankLines(cleanCharacters(block.text)) : normalizeText(block.text);
    if (text) parts.push(text);
  }
  flush();
  return sections;
}

function section(text: string, path: readonly OpenHeading[]): DocumentSection {
  return path.length > 0 ? { text, headings: path.map((open) => open.text) } : { text };
}

function trimBlankLines(text: string): string {
  return text.replace(/^(?:[ \t]*\n)+/, '').trimEnd();
}
