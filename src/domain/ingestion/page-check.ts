import type { PageValidators } from '../../rag/ingest/download-web-page.js';
import { now } from '../ids.js';

/** What a fetch of a URL datasource found, as its config records it (`lastCheck`). */
export interface PageCheck {
  at: string;
  outcome: 'changed' | 'unchanged' | 'failed';
  reason?: string;
}

/**
 * What a page's config keeps of the fetch its index was made from, to tell the next fetch whether anything
 * changed: the HTTP validators for a conditional request, the hash of the bytes (no parsing when equal) and
 * of the extracted text (no embedding when equal).
 */
export interface IndexedPage extends PageValidators {
  contentHash?: string;
  textHash?: string;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export function indexedPageOf(config: Record<string, unknown>): IndexedPage {
  return {
    etag: text(config.etag),
    lastModified: text(config.lastModified),
    contentHash: text(config.contentHash),
    textHash: text(config.textHash),
  };
}

/**
 * The config keys one check writes: its outcome, and what the fetch found (`found`, for a new index or a
 * changed one; a key it lacks, such as an ETag the server stopped sending, is removed).
 */
export function checkedConfig(outcome: PageCheck['outcome'], reason?: string, found?: IndexedPage): Record<string, unknown> {
  const lastCheck: PageCheck = { at: now(), outcome, ...(reason === undefined ? {} : { reason }) };
  if (found === undefined) return { lastCheck };
  const { etag = null, lastModified = null, contentHash = null, textHash = null } = found;
  return { lastCheck, etag, lastModified, contentHash, textHash };
}
