import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { OutboundPolicy } from '../../net/address-policy.js';
import { downloadWebPage, type DownloadedPage, type PageValidators } from '../ingest/download-web-page.js';

/** How a crawl fetches: where it may go, how much one response may hold, and how long one may take. */
export interface CrawlFetchOptions {
  policy: OutboundPolicy;
  maxBytes: number;
  timeoutMs: number;
  /** Where downloads are written while they are looked at. */
  tempDir: string;
  signal: AbortSignal;
}

/**
 * Spaces the requests of a crawl to one site: each starts at least `gapMs` after the one before (robots.txt's
 * Crawl-delay, or Parley's own minimum), however many are in flight.
 */
export class RequestPacer {
  #nextAt = 0;

  constructor(private readonly gapMs: number) {}

  async turn(signal: AbortSignal): Promise<void> {
    const at = Math.max(Date.now(), this.#nextAt);
    this.#nextAt = at + this.gapMs;
    if (at > Date.now()) await delay(at - Date.now(), undefined, { signal });
  }
}

/**
 * Downloads `url` into a file of its own under the temp folder and hands it to `use`; the file is removed
 * afterwards, whatever `use` did. A 304 (with `validators`) hands `undefined` for the file.
 */
export async function withDownload<T>(
  url: string,
  options: CrawlFetchOptions,
  validators: PageValidators | undefined,
  use: (page: DownloadedPage, file: string) => Promise<T>,
): Promise<T> {
  await fs.mkdir(options.tempDir, { recursive: true });
  const file = path.join(options.tempDir, `crawl-${randomUUID()}`);
  try {
    const page = await downloadWebPage(url, file, { ...options, validators });
    return await use(page, file);
  } finally {
    await fs.rm(file, { force: true });
  }
}

/** A small resource of the site (robots.txt, a sitemap) as bytes. */
export const fetchBytes = (url: string, options: CrawlFetchOptions): Promise<{ finalUrl: string; bytes: Buffer }> =>
  withDownload(url, options, undefined, async (page, file) => {
    // Unconditional: a 304 cannot come back.
    const finalUrl = page.notModified ? url : page.finalUrl;
    return { finalUrl, bytes: await fs.readFile(file) };
  });
