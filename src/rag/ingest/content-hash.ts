import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';

/** SHA-256 of a file's bytes, streamed (a page may be as large as an upload). */
export async function fileHash(filePath: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(filePath), hash);
  return `sha256:${hash.digest('hex')}`;
}

/**
 * SHA-256 of the chunk texts in order: what would be embedded. A page whose markup changed (a date in the
 * footer aside, an ad, a token) but whose extracted text did not hashes the same.
 */
export function textHash(texts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const text of texts) hash.update(text).update('\u0000');
  return `sha256:${hash.digest('hex')}`;
}
