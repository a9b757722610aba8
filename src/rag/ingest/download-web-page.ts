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
}

export interface DownloadedPage {
  finalUrl: string;
  contentType: string | null;
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

/** Fetches `url` into `destination`; refuses destinations outside the policy, oversize bodies and HTTP errors. */
export async function downloadWebPage(url: string, destination: string, options: DownloadOptions): Promise<DownloadedPage> {
  const response = await guardedRequest(url, {
    policy: options.policy,
    timeoutMs: options.timeoutMs,
    maxRedirects: 5,
    signal: options.signal,
    headers: { 'user-agent': 'Parley/1.0 (+self-hosted knowledge ingestion)', accept: 'text/html,application/pdf,*/*;q=0.8' },
  });
  if (response.status >= 400) {
    response.body.resume();
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
  return { finalUrl: response.finalUrl, contentType: response.headers['content-type'] ?? null };
}
