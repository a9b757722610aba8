import type { ParsedDocument } from '../document.js';

/** What one kind's parser returns; the entry point adds the kind and refuses documents without text. */
export type ParsedContent = Omit<ParsedDocument, 'kind'>;

/** File path in, content out: no shared state, so parsers can run in a worker thread. */
export type DocumentParser = (filePath: string) => Promise<ParsedContent>;
