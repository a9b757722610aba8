import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { OutboundPolicy } from '../../net/address-policy.js';
import { guardedRequest } from '../../net/guarded-request.js';
import { UnreadableDocumentError } from './document.js';

export interface DownloadOptions {
  /** Where pages may be fetched from (PARLEY_OUTBOUND_ALLOW). */
  policy: OutboundPolicy;
  maxBytes: number;
  timeoutMs: number;
  signal?: AbortSignal;
  /** What the last fetch answered, sent as If-None-Match and If-Modified-Since: unchanged, the server answers 304. */
  validators?: PageValidators;
}

/** A page's HTTP validators (RFC 9110 §8.8), as the server sent them. */
export interface PageValidators {
  etag?: string;
  lastModified?: string;
}

export type DownloadedPage =
  | { notModified: true }
  | {
      notModified: false;
      finalUrl: string;
      contentType: string | null;
      validators: PageValidators;
      /** The `X-Robots-Tag` header(s), joined: what the page asks of robots, for a file without HTML too. */
      robotsTag: string | null;
    };

/** How Parley names itself to the sites it fetches from; robots.txt groups for `Parley` (or `*`) apply to it. */
export const PARLEY_USER_AGENT = 'Parley/1.0 (+self-hosted knowledge ingestion)';

/** The page is not there (404 Not Found, 410 Gone): for a crawl, a page that left the site. */
export class PageGoneError extends UnreadableDocumentError {
  constructor(readonly status: number) {
    super(`The page answered HTTP ${status}`);
  }
}

/** Stops a download that grows past `maxBytes`, whatever Content-Length claimed. */
function byteCap(maxBytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > maxBytes) callback(new UnreadableDocumentError(`The page is larger than ${Math.round(maxBytes / 1048576)} MB`));
      else callback(null, chunk);
    },
  });
}

const conditionalHeaders = ({ etag, lastModified }: PageValidators = {}): Record<string, string> => ({
  ...(etag === undefined ? {} : { 'if-none-match': etag }),
  ...(lastModified === undefined ? {} : { 'if-modified-since': lastModified }),
});

/**
 * Fetches `url` into `destination`, conditionally when `validators` are given (a 304 writes nothing);
 * refuses destinations outside the policy, oversize bodies and HTTP errors.
 */
export async function downloadWebPage(url: string, destination: string, options: DownloadOptions): Promise<DownloadedPage> {
  const response = await guardedRequest(url, {
    policy: options.policy,
    timeoutMs: options.timeoutMs,
    maxRedirects: 5,
    signal: options.signal,
    headers: {
      'user-agent': PARLEY_USER_AGENT,
      accept: 'text/html,application/pdf,*/*;q=0.8',
      ...conditionalHeaders(options.validators),
    },
  });
  if (response.status === 304) {
    response.body.resume();
    return { notModified: true };
  }
  if (response.status >= 400) {
    response.body.resume();
    if (response.status === 404 || response.status === 410) throw new PageGoneError(response.status);
    const error = new Error(`The page answered HTTP ${response.status}`);
    // 4xx other than 408/429 will not change on retry.
    if (response.status < 500 && response.status !== 408 && response.status !== 429) {
      throw new UnreadableDocumentError(error.message);
    }
    throw error;
  }
  const declared = Number(response.headers['content-length'] ?? 0);
  if (declared > options.maxBytes) {
    response.body.destroy();
    throw new UnreadableDocumentError(`The page is larger than ${Math.round(options.maxBytes / 1048576)} MB`);
  }
  try {
    await pipeline(response.body, byteCap(options.maxBytes), createWriteStream(destination));
  } catch (error) {
    await fs.rm(destination, { force: true });
    throw error;
  }
  const { etag, 'last-modified': lastModified } = response.headers;
  return {
    notModified: false,
    finalUrl: response.finalUrl,
    contentType: response.headers['content-type'] ?? null,
    robotsTag: [response.headers['x-robots-tag'] ?? []].flat().join(', ') || null,
    validators: { ...(etag === undefined ? {} : { etag }), ...(lastModified === undefined ? {} : { lastModified }) },
  };
}
