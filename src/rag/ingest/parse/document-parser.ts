import type { ParsedDocument } from '../document.js';
import type { ParseLimits } from './parse-limits.js';

/** What one kind's parser returns; the entry point adds the kind and refuses documents without text. */
export type ParsedContent = Omit<ParsedDocument, 'kind'>;

/**
 * File path in, content out: no shared state, so parsers can run in a worker thread. A parser refuses a
 * document over `limits` as early as its format lets it tell.
 */
export type DocumentParser = (filePath: string, limits: ParseLimits) => Promise<ParsedContent>;
