import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';

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

/** Query parameters that follow a visitor (campaigns, ad clicks), not the page: folded away. */
const TRACKING_PARAMETER = /^(utm_\w+|gclid|dclid|fbclid|msclkid|mc_cid|mc_eid|_ga|_gl|yclid)$/i;

/**
 * The address as the same page is written however it was typed: scheme and host in lower case and the
 * default port dropped (by URL itself), no fragment, no tracking parameters, the others in name order,
 * and no trailing slash but the root's. Conservative on purpose: a URL taken for another is a page not
 * added, so scheme, host (`www.`) and path case still tell pages apart.
 */
export function normalisedUrl(raw: string): string {
  const url = new URL(raw);
  url.hash = '';
  const kept = [...url.searchParams].filter(([name]) => !TRACKING_PARAMETER.test(name));
  kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  url.search = new URLSearchParams(kept).toString();
  if (url.pathname.length > 1 && url.pathname.endsWith('/')) url.pathname = url.pathname.replace(/\/+$/, '');
  return url.toString();
}
