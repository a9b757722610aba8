import { CallFailed } from './parley-client.js';
import type { Strings } from './strings/index.js';

/** A failed call as a sentence for the visitor: what to do about it, never the API's code. */
export function explainError(t: Strings, error: unknown): string {
  if (error instanceof CallFailed) {
    if (error.status === 429) return t.rateLimited;
    if (error.status === 400 || error.status === 413) return t.tooLong;
    if (error.status === 0) return t.offline;
    return t.failed;
  }
  return t.offline;
}
