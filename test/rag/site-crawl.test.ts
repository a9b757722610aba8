import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { OutboundPolicy } from '../../src/net/address-policy.js';
import { CrawlScope } from '../../src/rag/crawl/crawl-scope.js';
import { pageLinks, robotsTagDirectives } from '../../src/rag/crawl/page-links.js';
import { readRobots, RobotsUnreachableError } from '../../src/rag/crawl/robots-rules.js';
import { crawlSite, type CrawledPage } from '../../src/rag/crawl/site-crawl.js';
import { readSitemaps } from '../../src/rag/crawl/sitemaps.js';
import { TestWebsite } from '../support/test-website.js';

const { html, urlset, sitemapIndex, gzip } = TestWebsite;

const fetchOptions = () => ({
  policy: new OutboundPolicy(loadConfig({ PARLEY_OUTBOUND_ALLOW: 'loopback' }).outbound),
  maxBytes: 1024 * 1024,
  timeoutMs: 5_000,
  tempDir: path.join(os.tmpdir(), 'parley-crawl-test'),
  signal: new AbortController().signal,
});

describe('crawl scope', () => {
  it('keeps to the start URL’s origin and folder unless told which paths to include or exclude', () => {
    const scope = new CrawlScope(new URL('https://shop.example/help/intro'), [], []);
    expect(scope.contains(new URL('https://shop.example/help/returns'))).toBe(true);
    expect(scope.contains(new URL('https://shop.example/help'))).toBe(true);
    expect(scope.contains(new URL('https://shop.example/blog/news'))).toBe(false);
    expect(scope.contains(new URL('http://shop.example/help/returns'))).toBe(false);
    expect(scope.contains(new URL('https://cdn.shop.example/help/returns'))).toBe(false);
    const chosen = new CrawlScope(new URL('https://shop.example/'), ['/docs/**', 'blog/*'], ['/docs/internal/**']);
    expect(chosen.contains(new URL('https://shop.example/docs/a/b'))).toBe(true);
    expect(chosen.contains(new URL('https://shop.example/blog/post'))).toBe(true);
    expect(chosen.contains(new URL('https://shop.example/blog/post/comments'))).toBe(false);
    expect(chosen.contains(new URL('https://shop.example/docs/internal/x'))).toBe(false);
    expect(chosen.follows(new URL('https://shop.example/docs/logo.PNG'))).toBe(false);
    expect(chosen.follows(new URL('https://shop.example/docs/manual.pdf'))).toBe(true);
  });
});

describe('page links', () => {
  it('reads links against <base>, the canonical URL and robots meta directives; nofollow links and other schemes left out', () => {
    const page = `<html><head><base href="https://shop.example/help/"><link rel="canonical" href="/help/returns">
      <meta name="ROBOTS" content="noindex, follow"></head><body>
      <a href="shipping">Shipping</a><a href="/sale" rel="nofollow sponsored">Sale</a><a href="mailto:x@y.z">Mail</a>
      <a href="javascript:void(0)">No</a><map><area href="https://other.example/"></map><a href="  ">blank</a></body></html>`;
    expect(pageLinks(page, 'https://shop.example/help/returns?ref=1')).toEqual({
      links: ['https://shop.example/help/shipping', 'https://other.example/'],
      canonical: 'https://shop.example/help/returns',
      noindex: true,
      nofollow: false,
    });
    expect(pageLinks('<meta name="robots" content="none"><a href="/a">a</a>', 'https://shop.example/')).toMatchObject({
      noindex: true,
      nofollow: true,
    });
  });
});

describe('X-Robots-Tag', () => {
  it('applies the directives meant for every robot or named for Parley, not those named for another', () => {
    const none = { noindex: false, nofollow: false };
    expect(robotsTagDirectives(null)).toEqual(none);
    expect(robotsTagDirectives('NoIndex')).toEqual({ noindex: true, nofollow: false });
    expect(robotsTagDirectives('googlebot: noindex, nofollow')).toEqual(none);
    expect(robotsTagDirectives('googlebot: noindex, parley: nofollow')).toEqual({ noindex: false, nofollow: true });
    expect(robotsTagDirectives('Parley: none')).toEqual({ noindex: true, nofollow: true });
    expect(robotsTagDirectives('unavailable_after: 25 Jun 2030 15:00:00 PST, nofollow')).toEqual({ noindex: false, nofollow: true });
    expect(robotsTagDirectives('max-snippet: 20, noarchive')).toEqual(none);
  });
});

describe('robots.txt and sitemaps from a loopback site', () => {
  const site = new TestWebsite();
  beforeAll(async () => {
    await site.start();
  });
  afterAll(() => site.stop());

  it('obeys the Parley group over *, caps the Crawl-delay, and lists its Sitemap lines', async () => {
    site.pages.set('/robots.txt', {
      body: `User-agent: *\nDisallow: /\n\nUser-agent: Parley\nDisallow: /private\nCrawl-delay: 900\nSitemap: ${site.url}/s.xml\n`,
      contentType: 'text/plain',
    });
    const robots = await readRobots(site.url, fetchOptions());
    expect(robots.allows(`${site.url}/help`)).toBe(true);
    expect(robots.allows(`${site.url}/private/x`)).toBe(false);
    expect(robots.crawlDelayMs).toBe(30_000);
    expect(robots.sitemaps).toEqual([`${site.url}/s.xml`]);
  });

  it('allows everything when robots.txt is missing, and nothing (an error) when it answers a server error', async () => {
    site.pages.delete('/robots.txt');
    expect((await readRobots(site.url, fetchOptions())).allows(`${site.url}/anything`)).toBe(true);
    site.pages.set('/robots.txt', { body: 'down', status: 500 });
    await expect(readRobots(site.url, fetchOptions())).rejects.toBeInstanceOf(RobotsUnreachableError);
  });

  it('reads indexes, gzipped, nested and text sitemaps once each, and goes on past one that fails', async () => {
    site.pages.set('/index.xml', {
      body: sitemapIndex([`${site.url}/a.xml.gz`, `${site.url}/b.xml`, `${site.url}/broken.xml`, `${site.url}/index.xml`]),
    });
    site.pages.set('/a.xml.gz', {
      body: gzip(
        urlset([
          { loc: `${site.url}/1`, lastmod: '2026-01-02T03:04:05Z' },
          { loc: `${site.url}/2`, lastmod: 'not a date' },
        ]),
      ),
    });
    site.pages.set('/b.xml', { body: sitemapIndex([`${site.url}/c.txt`]) });
    site.pages.set('/c.txt', { body: `${site.url}/3\n\nnot a url\n${site.url}/1\n`, contentType: 'text/plain' });
    const reading = await readSitemaps([`${site.url}/index.xml`], fetchOptions(), { maxEntries: 100, maxFiles: 10 });
    expect(reading.entries).toEqual([{ url: `${site.url}/1`, lastmod: '2026-01-02T03:04:05Z' }, { url: `${site.url}/2` }, { url: `${site.url}/3` }]);
    expect(reading.read).toBe(5);
    expect(reading.failures).toEqual([expect.stringMatching(/broken\.xml: The page answered HTTP 404/)]);
  });

  it('spaces its requests by the Crawl-delay, one at a time', async () => {
    site.pages.set('/robots.txt', { body: 'User-agent: *\nCrawl-delay: 0.2\n', contentType: 'text/plain' });
    site.pages.set('/paced/', { body: html('Start', 'start', { links: ['/paced/a', '/paced/b', '/paced/c'] }) });
    for (const name of ['a', 'b', 'c']) site.pages.set(`/paced/${name}`, { body: html(name, name) });
    const from = site.requests.length;
    const seen: CrawledPage[] = [];
    await crawlSite(
      { ...fetchOptions(), startUrl: `${site.url}/paced/`, include: [], exclude: [], maxPages: 10, maxDepth: 3, minDelayMs: 0, concurrency: 4 },
      { known: () => undefined, page: async (page) => void seen.push(page) },
    );
    expect(seen.map((page) => page.outcome)).toEqual(['fetched', 'fetched', 'fetched', 'fetched']);
    const pages = site.requests.slice(from).filter((request) => request.path.startsWith('/paced'));
    const gaps = pages.slice(1).map((request, index) => request.at - pages[index]!.at);
    expect(gaps.every((gap) => gap >= 190)).toBe(true);
  });

  it('crawls the site where its address lands (another origin, as http to https or the bare domain to www.), robots.txt read there', async () => {
    // The same server under its other loopback name is another origin, as www.shop.example is to shop.example.
    const landing = site.url.replace('127.0.0.1', 'localhost');
    site.pages.set('/old-home', { body: '', location: `${landing}/moved/` });
    site.pages.set('/moved/', { body: html('Home', 'Welcome.', { links: ['/moved/a', 'b', `${site.url}/moved/a`] }) });
    site.pages.set('/moved/a', { body: html('A', 'Page a.') });
    site.pages.set('/moved/b', { body: html('B', 'Page b.') });
    const from = site.requests.length;
    const seen: CrawledPage[] = [];
    const summary = await crawlSite(
      { ...fetchOptions(), startUrl: `${site.url}/old-home`, include: [], exclude: [], maxPages: 10, maxDepth: 3, minDelayMs: 0, concurrency: 2 },
      { known: () => undefined, page: async (page) => void seen.push(page) },
    );
    expect(summary.mode).toBe('links');
    expect(seen.map((page) => [page.outcome, page.url]).sort()).toEqual([
      ['fetched', `${landing}/moved/`],
      ['fetched', `${landing}/moved/a`],
      ['fetched', `${landing}/moved/b`],
    ]);
    const landingHost = new URL(landing).host;
    expect(site.requests.slice(from).some((request) => request.path === '/robots.txt' && request.host === landingHost)).toBe(true);
  });

  it('does not fetch a start page robots.txt forbids: it is listed as skipped, with why', async () => {
    site.pages.set('/robots.txt', { body: 'User-agent: *\nDisallow: /closed/\n', contentType: 'text/plain' });
    site.pages.set('/closed/', { body: html('Closed', 'Not for robots.', { links: ['/closed/a'] }) });
    const from = site.requests.length;
    const seen: CrawledPage[] = [];
    try {
      await crawlSite(
        { ...fetchOptions(), startUrl: `${site.url}/closed/`, include: [], exclude: [], maxPages: 10, maxDepth: 3, minDelayMs: 0, concurrency: 2 },
        { known: () => undefined, page: async (page) => void seen.push(page) },
      );
    } finally {
      site.pages.delete('/robots.txt');
    }
    expect(seen).toEqual([{ outcome: 'skipped', url: `${site.url}/closed/`, reason: 'robots.txt does not allow Parley to fetch it' }]);
    expect(site.pathsSince(from).filter((path) => path.startsWith('/closed'))).toEqual([]);
  });

  it('keeps out a file whose X-Robots-Tag says noindex, and follows no link of a page whose header says nofollow', async () => {
    site.pages.set('/tagged/', { body: html('Tagged', 'Start.', { links: ['/tagged/report.txt', '/tagged/quiet'] }) });
    site.pages.set('/tagged/report.txt', { body: 'A private report.', contentType: 'text/plain', headers: { 'x-robots-tag': 'noindex' } });
    site.pages.set('/tagged/quiet', {
      body: html('Quiet', 'Quiet page.', { links: ['/tagged/hidden'] }),
      headers: { 'x-robots-tag': 'parley: nofollow' },
    });
    site.pages.set('/tagged/hidden', { body: html('Hidden', 'Only linked from the quiet page.') });
    const from = site.requests.length;
    const seen: CrawledPage[] = [];
    await crawlSite(
      { ...fetchOptions(), startUrl: `${site.url}/tagged/`, include: [], exclude: [], maxPages: 10, maxDepth: 3, minDelayMs: 0, concurrency: 2 },
      { known: () => undefined, page: async (page) => void seen.push(page) },
    );
    expect(seen.map((page) => [page.url, page.outcome]).sort()).toEqual([
      [`${site.url}/tagged/`, 'fetched'],
      [`${site.url}/tagged/quiet`, 'fetched'],
      [`${site.url}/tagged/report.txt`, 'skipped'],
    ]);
    expect(seen.find((page) => page.url.endsWith('report.txt'))).toMatchObject({ reason: 'The page asks robots not to index it (noindex)' });
    expect(site.pathsSince(from)).not.toContain('/tagged/hidden');
  });

  it('moves once: a landing page that redirects out of its own scope again is skipped, not followed round', async () => {
    site.pages.set('/wander/start', { body: '', location: '/roam/start' });
    // The landing answers the first crawl, then moves on itself when the second crawl asks for it.
    let asked = 0;
    site.dynamic = (path) => {
      if (path !== '/roam/start') return undefined;
      asked += 1;
      return asked === 1 ? { body: html('Roam', 'Roaming.') } : { body: '', location: '/elsewhere/start' };
    };
    site.pages.set('/elsewhere/start', { body: html('Elsewhere', 'Away.') });
    const seen: CrawledPage[] = [];
    try {
      await crawlSite(
        {
          ...fetchOptions(),
          startUrl: `${site.url}/wander/start`,
          include: [],
          exclude: [],
          maxPages: 10,
          maxDepth: 3,
          minDelayMs: 0,
          concurrency: 2,
        },
        { known: () => undefined, page: async (page) => void seen.push(page) },
      );
    } finally {
      site.dynamic = undefined;
    }
    expect(asked).toBe(2);
    expect(seen).toEqual([
      { outcome: 'skipped', url: `${site.url}/roam/start`, reason: `It redirects out of the site, to ${site.url}/elsewhere/start` },
    ]);
  });
});
