import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { normalisedUrl } from '../net/normalised-url.js';

/**
 * What makes two datasources of a datastore the same, as one short string kept on each
 * (`datasource.content_key`, indexed): a file or a text by the SHA-256 of its bytes, whatever its name
 * (so a text pasted twice, or pasted and uploaded as a file, is the same content); a web page by the
 * SHA-256 of its normalised URL, as its content is whatever the address serves. The prefixes keep the
 * two kinds apart.
 */

/** A hash to feed the bytes of an upload as they stream to disk; `contentKey` reads it at the end. */
export const contentHash = (): Hash => createHash('sha256');

export const contentKey = (hash: Hash): string => `sha256:${hash.digest('hex')}`;

export const textContentKey = (text: string): string => contentKey(createHash('sha256').update(text, 'utf8'));

export async function fileContentKey(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return contentKey(hash);
}

export const urlContentKey = (url: string): string => `url:${createHash('sha256').update(normalisedUrl(url)).digest('hex')}`;

/** A website datasource by its start URL, normalised: a site added twice is the same site, not a page of it. */
export const siteContentKey = (url: string): string => `site:${createHash('sha256').update(normalisedUrl(url)).digest('hex')}`;
