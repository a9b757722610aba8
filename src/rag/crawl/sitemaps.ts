import { gunzipSync } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';
import { UnreadableDocumentError } from '../ingest/document.js';
import { fetchBytes, type CrawlFetchOptions } from './crawl-fetch.js';

/** A page a sitemap lists, with the time it says the page last changed. */
export interface SitemapEntry {
  url: string;
  lastmod?: string;
}

/** What reading a site's sitemaps found. */
export interface SitemapReading {
  entries: SitemapEntry[];
  /** Sitemap files read. */
  read: number;
  /** Sitemaps that could not be read, with why. */
  failures: string[];
  /** Whether one of them failed for a passing reason (a server error, the network), not for want of a sitemap there. */
  unreachable: boolean;
}

export interface SitemapLimits {
  /** Entries kept at most; reading stops there. */
  maxEntries: number;
  /** Sitemap files read at most (an index and the sitemaps it lists, nested or not). */
  maxFiles: number;
}

/** The sitemaps protocol's own bound on one file, uncompressed (sitemaps.org): a larger one is not a sitemap. */
const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  processEntities: true,
  isArray: (name) => name === 'url' || name === 'sitemap',
});

interface ParsedSitemap {
  urlset?: { url?: Array<{ loc?: unknown; lastmod?: unknown }> };
  sitemapindex?: { sitemap?: Array<{ loc?: unknown }> };
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const isWebUrl = (value: string): boolean => /^https?:\/\//i.test(value);

/** The sitemap's bytes, unpacked when gzipped (by their magic number: servers label .xml.gz every way). */
function unpacked(bytes: Buffer): string {
  const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b;
  return (gzipped ? gunzipSync(bytes, { maxOutputLength: MAX_SITEMAP_BYTES }) : bytes).toString('utf8');
}

/**
 * What one sitemap file holds: pages (a `urlset`), other sitemaps (a `sitemapindex`), or, for a text
 * sitemap, one URL a line.
 */
function parseSitemap(body: string): { pages: SitemapEntry[]; sitemaps: string[] } {
  const trimmed = body.trimStart();
  if (!trimmed.startsWith('<')) {
    const pages = trimmed
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(isWebUrl)
      .map((url) => ({ url }));
    return { pages, sitemaps: [] };
  }
  const parsed = parser.parse(body) as ParsedSitemap;
  const pages: SitemapEntry[] = [];
  for (const entry of parsed.urlset?.url ?? []) {
    const url = text(entry.loc);
    if (url === undefined || !isWebUrl(url)) continue;
    const lastmod = text(entry.lastmod);
    pages.push(lastmod !== undefined && !Number.isNaN(Date.parse(lastmod)) ? { url, lastmod } : { url });
  }
  const sitemaps = (parsed.sitemapindex?.sitemap ?? []).map((entry) => text(entry.loc)).filter((loc) => loc !== undefined && isWebUrl(loc));
  return { pages, sitemaps: sitemaps as string[] };
}

/**
 * Reads the sitemaps at `roots` and those their indexes name, breadth first, each file once, within
 * `limits`. A sitemap that cannot be read is reported and the others are still read.
 */
export async function readSitemaps(roots: readonly string[], options: CrawlFetchOptions, limits: SitemapLimits): Promise<SitemapReading> {
  const queue = [...new Set(roots)];
  const visited = new Set<string>(queue);
  const reading: SitemapReading = { entries: [], read: 0, failures: [], unreachable: false };
  const listed = new Set<string>();
  while (queue.length > 0 && reading.read < limits.maxFiles && reading.entries.length < limits.maxEntries) {
    const url = queue.shift()!;
    reading.read += 1;
    const failed = (reason: string) => reading.failures.push(`${url}: ${reason}`);
    let bytes: Buffer;
    try {
      ({ bytes } = await fetchBytes(url, { ...options, maxBytes: MAX_SITEMAP_BYTES }));
    } catch (error) {
      options.signal.throwIfAborted();
      failed(messageOf(error));
      // Not there (a 404) is an answer; a server error or the network may be gone tomorrow.
      if (!(error instanceof UnreadableDocumentError)) reading.unreachable = true;
      continue;
    }
    let found: ReturnType<typeof parseSitemap>;
    try {
      found = parseSitemap(unpacked(bytes));
    } catch (error) {
      failed(`not a sitemap (${messageOf(error)})`);
      continue;
    }
    for (const page of found.pages) {
      if (reading.entries.length >= limits.maxEntries) break;
      if (listed.has(page.url)) continue;
      listed.add(page.url);
      reading.entries.push(page);
    }
    for (const sitemap of found.sitemaps) {
      if (visited.has(sitemap)) continue;
      visited.add(sitemap);
      queue.push(sitemap);
    }
  }
  return reading;
}
