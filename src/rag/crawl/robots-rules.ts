import robotsParserModule from 'robots-parser';
import { UnreadableDocumentError } from '../ingest/document.js';
import { fetchBytes, type CrawlFetchOptions } from './crawl-fetch.js';

// CommonJS whose module.exports is the parser itself; its types call that a default export.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

/** The product token robots.txt rules are matched against (the user agent says `Parley/1.0`). */
const ROBOTS_TOKEN = 'Parley';

/** A Crawl-delay longer than this is taken as this: a site of a few hundred pages still finishes within hours. */
const MAX_CRAWL_DELAY_MS = 30_000;

/** What a site's robots.txt allows Parley (RFC 9309). */
export interface RobotsRules {
  allows(url: string): boolean;
  /** The site's Crawl-delay for Parley, capped; undefined when it sets none. */
  crawlDelayMs: number | undefined;
  /** Its `Sitemap:` lines. */
  sitemaps: readonly string[];
}

const EVERYTHING_ALLOWED: RobotsRules = { allows: () => true, crawlDelayMs: undefined, sitemaps: [] };

/** Why a site is not crawled now: its robots.txt could not be read (RFC 9309 §2.3.1.4: assume complete disallow). */
export class RobotsUnreachableError extends Error {
  override readonly name = 'RobotsUnreachableError';
}

/**
 * The robots.txt of `origin`: as written when it answers; everything allowed when it answers a client error
 * (404 and the like: there are no rules); nothing allowed, as an error, when it cannot be read (a server
 * error, a network failure), since the rules might forbid what the crawl would fetch.
 */
export async function readRobots(origin: string, options: CrawlFetchOptions): Promise<RobotsRules> {
  const url = new URL('/robots.txt', origin).toString();
  let text: string;
  try {
    text = (await fetchBytes(url, { ...options, maxBytes: Math.min(options.maxBytes, 500 * 1024) })).bytes.toString('utf8');
  } catch (error) {
    if (error instanceof UnreadableDocumentError) return EVERYTHING_ALLOWED;
    options.signal.throwIfAborted();
    const reason = error instanceof Error ? error.message : String(error);
    throw new RobotsUnreachableError(`The site's robots.txt could not be read (${reason}); it is not crawled until it can be`);
  }
  const robots = robotsParser(url, text);
  const delaySeconds = robots.getCrawlDelay(ROBOTS_TOKEN);
  return {
    // A URL of another origin is not this file's to judge: the crawl keeps to one origin anyway.
    allows: (target) => robots.isAllowed(target, ROBOTS_TOKEN) !== false,
    crawlDelayMs: delaySeconds === undefined || !(delaySeconds >= 0) ? undefined : Math.min(delaySeconds * 1000, MAX_CRAWL_DELAY_MS),
    sitemaps: robots.getSitemaps(),
  };
}
