import fs from 'node:fs/promises';
import { normalisedUrl, withoutTracking } from '../../net/normalised-url.js';
import { PageGoneError, type PageValidators } from '../ingest/download-web-page.js';
import { RequestPacer, withDownload, type CrawlFetchOptions } from './crawl-fetch.js';
import { CrawlScope } from './crawl-scope.js';
import { pageLinks, robotsTagDirectives, type PageLinks } from './page-links.js';
import { readRobots, type RobotsRules } from './robots-rules.js';
import { readSitemaps } from './sitemaps.js';

export interface SiteCrawlOptions extends CrawlFetchOptions {
  /** A page of the site to start from, or the URL of its sitemap. */
  startUrl: string;
  include: readonly string[];
  exclude: readonly string[];
  /** Pages fetched at most; URLs found beyond are counted, not fetched. */
  maxPages: number;
  /** Links followed at most this many steps from the start page (when the site has no sitemap). */
  maxDepth: number;
  /** Requests to the site start at least this far apart; robots.txt's Crawl-delay may ask for more. */
  minDelayMs: number;
  /** Requests in flight at once (one while the site asks for a Crawl-delay). */
  concurrency: number;
}

/** What the crawl knows of a page from an earlier crawl, to fetch it conditionally or not at all. */
export interface KnownPage {
  validators?: PageValidators;
  /** When it was last checked (fetched, or found unchanged): a sitemap `lastmod` not after it means no change. */
  checkedAt?: string;
  /** The HTML fetched last time, to follow its links again when the server answers 304. */
  storedHtml(): Promise<string | undefined>;
}

/** One page's turn in the crawl. `url` is the page's own address (its canonical one, when it names one). */
export type CrawledPage =
  | { outcome: 'fetched'; url: string; file: string; finalUrl: string; contentType: string | null; validators: PageValidators }
  | { outcome: 'unchanged'; url: string; reason: string }
  | { outcome: 'gone'; url: string; reason: string }
  | { outcome: 'failed'; url: string; reason: string }
  | { outcome: 'skipped'; url: string; reason: string };

export interface CrawlHooks {
  /** An earlier crawl's page at this normalised URL. */
  known(key: string): KnownPage | undefined;
  /** Each page as the crawl is done with it; a fetched page's file is removed once this settles. */
  page(page: CrawledPage): Promise<void>;
}

export interface CrawlSummary {
  /** How pages were found: the site's sitemaps, or its links from the start page. */
  mode: 'sitemap' | 'links';
  /** Distinct pages of the crawl's scope found, fetched or not. */
  found: number;
  /** Of those, left out by maxPages. */
  capped: number;
  /** Normalised URLs of every page met in this crawl (fetched, unchanged, failed, skipped). */
  met: ReadonlySet<string>;
}

/** Why a crawl stopped before it could tell which pages the site has: tried again later, its pages kept meanwhile. */
export class SiteUnreachableError extends Error {
  override readonly name = 'SiteUnreachableError';
}

/** Sitemap files read at most for one crawl (indexes and the sitemaps they list). */
const MAX_SITEMAP_FILES = 50;

/** A page read for links only up to this size; its text is still indexed whole. */
const MAX_LINK_SCAN_BYTES = 5 * 1024 * 1024;

const looksLikeSitemap = (url: URL): boolean => /\.xml(\.gz)?$/i.test(url.pathname) || /sitemap[^/]*$/i.test(url.pathname);

const isHtml = (contentType: string | null, file: string): Promise<boolean> =>
  contentType !== null
    ? Promise.resolve(/html/i.test(contentType))
    : fs.readFile(file, { encoding: 'latin1' }).then((head) => /<html|<!doctype html/i.test(head.slice(0, 1024)));

interface Visit {
  url: string;
  depth: number;
  lastmod?: string;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Crawls one site: robots.txt first (its rules and Crawl-delay obeyed), then the pages its sitemaps list
 * (robots.txt's `Sitemap:` lines, else `/sitemap.xml`; indexes and gzipped files too) or, without one, the
 * pages linked from the start page, breadth first. Every request goes through the outbound policy, redirects
 * included. Fragments and tracking parameters are folded, a page naming another as canonical is that page,
 * and each page is handed to `hooks.page` once.
 */
export async function crawlSite(options: SiteCrawlOptions, hooks: CrawlHooks): Promise<CrawlSummary> {
  const start = new URL(withoutTracking(options.startUrl));
  try {
    return await crawlFrom(start, options, hooks, true);
  } catch (error) {
    // The address given leads elsewhere (http to https, the bare domain to www., an old path to a new one):
    // the site is where it lands, its robots.txt and sitemap there. Once: a landing that moves again is skipped.
    if (!(error instanceof StartMovedError)) throw error;
    return crawlFrom(new URL(withoutTracking(error.landing)), options, hooks, false);
  }
}

/** The start page of a crawl by links redirects out of the scope its address gave. */
class StartMovedError extends Error {
  constructor(readonly landing: string) {
    super(`The start page redirects to ${landing}`);
  }
}

async function crawlFrom(start: URL, options: SiteCrawlOptions, hooks: CrawlHooks, mayMove: boolean): Promise<CrawlSummary> {
  const robots = await readRobots(start.origin, options);
  // A sitemap names the pages itself: its folder says nothing of theirs.
  const scope = new CrawlScope(looksLikeSitemap(start) ? new URL('/', start) : start, options.include, options.exclude);
  const crawl = new Crawl(options, hooks, scope, robots, mayMove);
  const listed = await crawl.sitemapPages(start);
  if (listed.length > 0) {
    for (const entry of listed) crawl.add({ ...entry, depth: 0 });
    await crawl.run(false);
    return crawl.summary('sitemap');
  }
  crawl.add({ url: start.toString(), depth: 0 });
  await crawl.run(true);
  // Without its start page the crawl cannot tell which pages the site still has.
  if (crawl.startFailure !== undefined) {
    throw new SiteUnreachableError(`The start page could not be fetched (${crawl.startFailure}); the crawl is tried again later`);
  }
  return crawl.summary('links');
}

/** One crawl's state: the pages queued, met and fetched, and the requests' pace. */
class Crawl {
  readonly #queue: Visit[] = [];
  /** Normalised URLs queued or met, so each page is visited once. */
  readonly #seen = new Set<string>();
  readonly #met = new Set<string>();
  readonly #pacer: RequestPacer;
  readonly #concurrency: number;
  #taken = 0;
  #capped = 0;
  /** Why the start page of a crawl by links could not be fetched. */
  startFailure: string | undefined;

  constructor(
    private readonly options: SiteCrawlOptions,
    private readonly hooks: CrawlHooks,
    private readonly scope: CrawlScope,
    private readonly robots: RobotsRules,
    /** Whether a start page that redirects out of the scope moves the crawl there (StartMovedError). */
    private readonly mayMove: boolean,
  ) {
    const delayMs = robots.crawlDelayMs;
    this.#pacer = new RequestPacer(Math.max(options.minDelayMs, delayMs ?? 0));
    this.#concurrency = delayMs !== undefined && delayMs > 0 ? 1 : Math.max(1, options.concurrency);
  }

  /** The in-scope pages the site's sitemaps list; none when it has no readable sitemap. */
  async sitemapPages(start: URL): Promise<Array<{ url: string; lastmod?: string }>> {
    const roots = looksLikeSitemap(start)
      ? [start.toString()]
      : this.robots.sitemaps.length > 0
        ? this.robots.sitemaps
        : [new URL('/sitemap.xml', start).toString()];
    const reading = await readSitemaps(roots, this.options, { maxEntries: this.options.maxPages * 20, maxFiles: MAX_SITEMAP_FILES });
    // A sitemap that is there but does not answer now is no reason to crawl another way (and drop what it lists).
    if (reading.entries.length === 0 && reading.unreachable) {
      throw new SiteUnreachableError(`The site's sitemap could not be read (${reading.failures.join('; ')}); the crawl is tried again later`);
    }
    return reading.entries.filter((entry) => this.belongs(entry.url));
  }

  /** Queues a page not met yet; past maxPages it is counted instead. */
  add(visit: Visit): void {
    const key = normalisedUrl(visit.url);
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    if (this.#taken + this.#queue.length >= this.options.maxPages) {
      this.#capped += 1;
      return;
    }
    this.#queue.push({ ...visit, url: withoutTracking(visit.url) });
  }

  summary(mode: CrawlSummary['mode']): CrawlSummary {
    return { mode, found: this.#seen.size, capped: this.#capped, met: this.#met };
  }

  /** Visits the queue, `concurrency` pages at a time; a hook's failure stops the crawl and is thrown. */
  async run(followLinks: boolean): Promise<void> {
    const active = new Set<Promise<void>>();
    let failure: { error: unknown } | undefined;
    while (failure === undefined && (this.#queue.length > 0 || active.size > 0)) {
      while (this.#queue.length > 0 && active.size < this.#concurrency) {
        const visit = this.#queue.shift()!;
        this.#taken += 1;
        const task: Promise<void> = this.visit(visit, followLinks)
          .catch((error: unknown) => void (failure ??= { error }))
          .finally(() => active.delete(task));
        active.add(task);
      }
      await Promise.race(active);
    }
    await Promise.allSettled(active);
    if (failure !== undefined) throw failure.error;
  }

  private belongs(raw: string): boolean {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return false;
    }
    return this.scope.contains(url) && this.robots.allows(url.toString());
  }

  private async visit(visit: Visit, followLinks: boolean): Promise<void> {
    const { signal } = this.options;
    signal.throwIfAborted();
    const key = normalisedUrl(visit.url);
    // Met already as the canonical address of another page.
    if (this.#met.has(key)) return;
    this.#met.add(key);
    // Links and sitemap entries robots.txt forbids are never queued; the start page is checked here.
    if (!this.robots.allows(visit.url)) {
      return this.hooks.page({ outcome: 'skipped', url: visit.url, reason: 'robots.txt does not allow Parley to fetch it' });
    }
    const known = this.hooks.known(key);
    const unchangedSince = visit.lastmod !== undefined && known?.checkedAt !== undefined && Date.parse(visit.lastmod) <= Date.parse(known.checkedAt);
    if (unchangedSince) {
      return this.hooks.page({ outcome: 'unchanged', url: visit.url, reason: 'The sitemap says it has not changed since the last check' });
    }
    await this.#pacer.turn(signal);
    // Errors of the download fail this page; errors of the hooks (a superseded crawl) stop the crawl.
    let downloaded = false;
    try {
      await withDownload(visit.url, this.options, known?.validators, async (page, file) => {
        downloaded = true;
        if (page.notModified) {
          await this.hooks.page({ outcome: 'unchanged', url: visit.url, reason: 'The server answered 304 Not Modified' });
          const html = followLinks ? await known?.storedHtml() : undefined;
          if (html !== undefined) this.followAll(visit, pageLinks(html, visit.url));
          return;
        }
        if (!this.scope.contains(new URL(page.finalUrl))) {
          if (this.mayMove && followLinks && visit.depth === 0) throw new StartMovedError(page.finalUrl);
          return this.hooks.page({ outcome: 'skipped', url: visit.url, reason: `It redirects out of the site, to ${page.finalUrl}` });
        }
        // What the page asks of robots: in its HTML, and (for any file) in its X-Robots-Tag header.
        const asked = robotsTagDirectives(page.robotsTag);
        const html = (await isHtml(page.contentType, file)) ? pageLinks(await readHead(file), page.finalUrl) : undefined;
        const links = html && { ...html, noindex: html.noindex || asked.noindex, nofollow: html.nofollow || asked.nofollow };
        if (followLinks && links !== undefined) this.followAll(visit, links);
        const own = this.ownAddress(key, page.finalUrl, links);
        if (typeof own !== 'string') return this.hooks.page({ outcome: 'skipped', url: visit.url, reason: own.reason });
        if (links?.noindex ?? asked.noindex) {
          return this.hooks.page({ outcome: 'skipped', url: own, reason: 'The page asks robots not to index it (noindex)' });
        }
        await this.hooks.page({
          outcome: 'fetched',
          url: own,
          file,
          finalUrl: page.finalUrl,
          contentType: page.contentType,
          validators: page.validators,
        });
      });
    } catch (error) {
      signal.throwIfAborted();
      if (downloaded || !(error instanceof Error)) throw error;
      const outcome = error instanceof PageGoneError ? 'gone' : 'failed';
      if (followLinks && visit.depth === 0) this.startFailure = messageOf(error);
      await this.hooks.page({ outcome, url: visit.url, reason: messageOf(error) });
    }
  }

  /**
   * The address the page is kept under: its canonical URL when it names one in the crawl's scope, else where
   * it was fetched from (after redirects). Either, met already under another address, makes it a copy.
   */
  private ownAddress(key: string, finalUrl: string, links: PageLinks | undefined): string | { reason: string } {
    const canonical = links?.canonical !== undefined && this.scope.contains(new URL(links.canonical)) ? links.canonical : undefined;
    const own = withoutTracking(canonical ?? finalUrl);
    for (const other of new Set([normalisedUrl(finalUrl), normalisedUrl(own)])) {
      if (other === key) continue;
      if (this.#met.has(other)) return { reason: `A copy of ${own}` };
      this.#met.add(other);
      this.#seen.add(other);
    }
    return own;
  }

  private followAll(visit: Visit, links: PageLinks): void {
    if (links.nofollow || visit.depth >= this.options.maxDepth) return;
    for (const link of links.links) {
      const url = new URL(link);
      if (this.scope.follows(url) && this.robots.allows(url.toString())) this.add({ url: url.toString(), depth: visit.depth + 1 });
    }
  }
}

async function readHead(file: string): Promise<string> {
  const handle = await fs.open(file);
  try {
    const buffer = Buffer.alloc(MAX_LINK_SCAN_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, MAX_LINK_SCAN_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}
