import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatasourceBody, DatastoreBody, ErrorBody } from '../support/bodies.js';
import { FakeEmbeddingsServer } from '../support/fake-embeddings-server.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import { TestWebsite } from '../support/test-website.js';
import { until } from '../support/until.js';

const { html, urlset, sitemapIndex, gzip } = TestWebsite;

describe.each(STORE_KINDS)('website datasources on %s', (kind) => {
  const embeddings = new FakeEmbeddingsServer();
  /** A help centre with sitemaps: robots.txt names an index, which lists a gzipped sitemap and a nested index. */
  const helpSite = new TestWebsite();
  /** A small site without sitemaps: its pages are found through links. */
  const linkSite = new TestWebsite();
  let parley: TestParley;
  let ws: Workspace;
  let datastoreId: string;

  beforeAll(async () => {
    await Promise.all([helpSite.start(), linkSite.start()]);
  });
  afterAll(async () => {
    await Promise.all([helpSite.stop(), linkSite.stop(), embeddings.stop()]);
  });

  parleyTest.beforeAll(async ({ startParley }) => {
    const url = await embeddings.start();
    parley = await startParley(kind, { workers: true, env: { PARLEY_EMBEDDINGS_URL: url, PARLEY_EMBEDDINGS_MODEL: 'fake-embed' } });
    ws = await parley.newWorkspace();
    datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: { name: 'help' } })).body.id;
  });

  const get = async (id: string, key = ws.key) => parley.call<DatasourceBody & ErrorBody>('GET', `/datasources/${id}`, { key });
  const pagesOf = async (siteId: string) =>
    (await parley.call<DatasourceBody[]>('GET', `/datastores/${datastoreId}/datasources`, { key: ws.key })).body.filter(
      (each) => each.groupId === siteId && each.id !== siteId,
    );
  const embeddedTexts = (from: number) => embeddings.requests.slice(from).flatMap((request) => request.body.input);

  async function addSite(config: Record<string, unknown>): Promise<DatasourceBody> {
    const created = await parley.call<DatasourceBody>('POST', '/datasources', { key: ws.key, body: { type: 'web_site', datastoreId, config } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ type: 'web_site', groupId: created.body.id });
    return settledCrawl(created.body);
  }

  /** Waits for a crawl newer than `before`'s and for every page it queued to settle. */
  async function settledCrawl(before: DatasourceBody): Promise<DatasourceBody> {
    const startedBefore = before.config.crawl?.startedAt;
    const site = await until(
      async () => (await get(before.id)).body,
      (body) => body.status === 'synched' && body.config.crawl?.finishedAt !== undefined && body.config.crawl.startedAt !== startedBefore,
      60_000,
    );
    await until(
      () => pagesOf(before.id),
      (pages) => pages.every((page) => page.status === 'synched' || page.status === 'error'),
      60_000,
    );
    return site;
  }

  async function resync(site: DatasourceBody): Promise<DatasourceBody> {
    expect((await parley.call('POST', `/datasources/${site.id}/resync`, { key: ws.key })).status).toBe(200);
    return settledCrawl(site);
  }

  describe('from sitemaps', () => {
    let site: DatasourceBody;
    const at = (path: string) => `${helpSite.url}${path}`;

    beforeAll(() => {
      helpSite.pages.set('/robots.txt', {
        body: `User-agent: *\nDisallow: /help/internal/\n\nUser-agent: OtherBot\nDisallow: /\n\nSitemap: ${at('/sitemap_index.xml')}\n`,
        contentType: 'text/plain',
      });
      helpSite.pages.set('/sitemap_index.xml', {
        body: sitemapIndex([at('/sitemaps/pages.xml.gz'), at('/sitemaps/more-index.xml')]),
        contentType: 'application/xml',
      });
      helpSite.pages.set('/sitemaps/pages.xml.gz', {
        body: gzip(
          urlset([
            { loc: at('/help/shipping'), lastmod: '2026-11-01' },
            { loc: at('/help/returns') },
            { loc: at('/help/internal/pricing-notes') },
            { loc: 'https://elsewhere.example/help/partner' },
          ]),
        ),
        contentType: 'application/gzip',
      });
      helpSite.pages.set('/sitemaps/more-index.xml', { body: sitemapIndex([at('/sitemaps/deep.xml')]) });
      helpSite.pages.set('/sitemaps/deep.xml', { body: urlset([{ loc: at('/help/warranty') }, { loc: at('/help/hours') }]) });
      helpSite.pages.set('/help/shipping', { body: html('Shipping', 'Parcels to the United Kingdom arrive within three days.'), etag: '"s1"' });
      helpSite.pages.set('/help/returns', { body: html('Returns', 'Returns are accepted within thirty days of delivery.'), etag: '"r1"' });
      helpSite.pages.set('/help/internal/pricing-notes', { body: html('Internal', 'Staff only.') });
      helpSite.pages.set('/help/warranty', {
        body: html('Warranty', 'Every kettle carries a two year warranty.'),
        lastModified: 'Tue, 03 Nov 2026 10:00:00 GMT',
      });
      helpSite.pages.set('/help/hours', { body: html('Opening hours', 'The shop opens at nine and closes at six.') });
    });

    it('indexes each listed page of the site as a datasource of the site’s group, obeying robots.txt', async () => {
      const from = helpSite.requests.length;
      site = await addSite({ source_url: at('/help/'), refreshInterval: 'weekly' });
      const pages = await pagesOf(site.id);
      expect(pages.map((page) => page.config.source_url).sort()).toEqual(
        [at('/help/hours'), at('/help/returns'), at('/help/shipping'), at('/help/warranty')].sort(),
      );
      expect(pages.every((page) => page.type === 'web_page' && page.status === 'synched' && page.nbChunks > 0)).toBe(true);
      const fetched = helpSite.pathsSince(from);
      expect(fetched).not.toContain('/help/internal/pricing-notes');
      expect(fetched[0]).toBe('/robots.txt');
      // Each page fetched once: the crawl hands what it fetched to the page's indexing.
      expect(fetched.filter((path) => path === '/help/returns')).toHaveLength(1);
      expect(helpSite.requests.at(-1)?.userAgent).toMatch(/^Parley\//);
      expect(site.config.crawl).toMatchObject({ mode: 'sitemap', found: 4, fetched: 4, changed: 4, failed: 0, removed: 0 });
      expect(site.config).toMatchObject({ refreshInterval: 'weekly', nextRefreshAt: expect.any(String) });
      const hits = await parley.call<Array<{ text: string; source: string }>>('POST', `/datastores/${datastoreId}/query`, {
        key: ws.key,
        body: { query: 'warranty kettle two year', topK: 3 },
      });
      expect(hits.body.some((hit) => hit.source === at('/help/warranty'))).toBe(true);
    });

    it('re-syncs without embedding what did not change; a changed page alone is embedded again, a removed one deleted', async () => {
      const before = await pagesOf(site.id);
      const from = helpSite.requests.length;
      const embedCalls = embeddings.requests.length;
      const unchanged = await resync(site);
      expect(embeddings.requests.length).toBe(embedCalls);
      expect(unchanged.config.crawl).toMatchObject({ changed: 0, unchanged: 4, removed: 0 });
      const conditional = helpSite.requests.slice(from).filter((request) => request.path.startsWith('/help/'));
      expect(conditional.find((request) => request.path === '/help/returns')).toMatchObject({ ifNoneMatch: '"r1"' });
      // The sitemap's lastmod is older than the last check: the shipping page is not fetched at all.
      expect(conditional.map((request) => request.path)).not.toContain('/help/shipping');
      expect((await pagesOf(site.id)).map((page) => page.lastSynch)).toEqual(before.map((page) => page.lastSynch));

      helpSite.pages.set('/help/returns', { body: html('Returns', 'Returns are accepted within sixty days, free of charge.'), etag: '"r2"' });
      helpSite.pages.set('/sitemaps/deep.xml', { body: urlset([{ loc: at('/help/warranty') }]) });
      helpSite.pages.delete('/help/hours');
      const changedFrom = embeddings.requests.length;
      const changed = await resync(unchanged);
      expect(changed.config.crawl).toMatchObject({ changed: 1, removed: 1 });
      const embedded = embeddedTexts(changedFrom);
      expect(embedded.some((text) => text.includes('sixty days'))).toBe(true);
      expect(embedded.some((text) => text.includes('kettle') || text.includes('United Kingdom'))).toBe(false);
      const after = await pagesOf(site.id);
      expect(after.map((page) => page.config.source_url).sort()).toEqual([at('/help/returns'), at('/help/shipping'), at('/help/warranty')].sort());
      const returns = after.find((page) => page.config.source_url === at('/help/returns'))!;
      expect(returns.config).toMatchObject({ etag: '"r2"', lastCheck: { outcome: 'changed' } });
    });

    it('takes a refresh interval on the site, not on one of its pages', async () => {
      const [page] = await pagesOf(site.id);
      const refused = await parley.call<ErrorBody>('PATCH', `/datasources/${page!.id}`, {
        key: ws.key,
        body: { config: { refreshInterval: 'daily' } },
      });
      expect(refused.status).toBe(400);
      const changed = await parley.call<DatasourceBody>('PATCH', `/datasources/${site.id}`, {
        key: ws.key,
        body: { config: { refreshInterval: 'daily' } },
      });
      expect(changed.status).toBe(200);
      expect(changed.body.config.refreshInterval).toBe('daily');
    });

    it('is not added twice: the same site answers the existing datasource, or 409 when asked to reject', async () => {
      const again = await parley.call<DatasourceBody>('POST', '/datasources', {
        key: ws.key,
        body: { type: 'web_site', datastoreId, config: { source_url: at('/help/#top') } },
      });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ id: site.id, duplicateOf: site.id });
      const rejected = await parley.call<ErrorBody>('POST', '/datasources', {
        key: ws.key,
        body: { type: 'web_site', datastoreId, config: { source_url: at('/help/') }, onDuplicate: 'reject' },
      });
      expect(rejected.status).toBe(409);
      expect(rejected.body.error).toBe('DUPLICATE_DATASOURCE');
    });

    it('is another workspace’s to neither read, re-sync nor delete', async () => {
      const other = await parley.newWorkspace();
      expect((await get(site.id, other.key)).status).toBe(403);
      expect((await parley.call('POST', `/datasources/${site.id}/resync`, { key: other.key })).status).toBe(403);
      expect((await parley.call('DELETE', `/datasources/${site.id}`, { key: other.key })).status).toBe(403);
      expect((await get(site.id)).status).toBe(200);
    });

    it('deletes its pages with it', async () => {
      const pages = await pagesOf(site.id);
      expect(pages.length).toBeGreaterThan(0);
      expect((await parley.call('DELETE', `/datasources/${site.id}`, { key: ws.key })).status).toBe(200);
      for (const page of pages) expect((await get(page.id)).status).toBe(404);
    });

    it('starts from a sitemap named as the hosted service’s clients send it (config.sitemap), its pages anywhere on the site', async () => {
      // The first site is gone with its pages (above): its warranty page is no other datasource's now.
      const fromSitemap = await addSite({ sitemap: at('/sitemaps/deep.xml') });
      expect(fromSitemap.config.source_url).toBe(at('/sitemaps/deep.xml'));
      expect((await pagesOf(fromSitemap.id)).map((page) => page.config.source_url)).toEqual([at('/help/warranty')]);
      expect((await parley.call('DELETE', `/datasources/${fromSitemap.id}`, { key: ws.key })).status).toBe(200);
    });
  });

  describe('from links, without a sitemap', () => {
    const at = (path: string) => `${linkSite.url}${path}`;

    beforeAll(() => {
      const nav = [
        '/about',
        '/faq#shipping',
        '/faq?utm_source=newsletter',
        '/old-faq',
        '/about-copy',
        '/to-private',
        '/calendar?month=0',
        'mailto:help@example.com',
        '/logo.png',
      ];
      linkSite.pages.set('/', { body: html('Home', 'Welcome to the kettle shop.', { links: nav }) });
      linkSite.pages.set('/about', { body: html('About', 'We have sold kettles since 1999.', { links: ['/', '/faq'] }) });
      linkSite.pages.set('/faq', { body: html('FAQ', 'Delivery takes three days.', { links: ['/missing'] }) });
      linkSite.pages.set('/old-faq', { body: '', location: '/faq' });
      linkSite.pages.set('/about-copy', {
        body: html('About', 'We have sold kettles since 1999.', { head: `<link rel="canonical" href="${at('/about')}">` }),
      });
      linkSite.pages.set('/to-private', { body: '', status: 302, location: 'http://10.0.0.1/admin' });
      // A crawler trap: every month links to the next, for ever.
      linkSite.dynamic = (path) => {
        const month = /^\/calendar\?month=(\d+)$/.exec(path)?.[1];
        if (month === undefined) return undefined;
        return { body: html(`Month ${month}`, `Events of month ${month}.`, { links: [`/calendar?month=${Number(month) + 1}`] }) };
      };
    });

    let site: DatasourceBody;

    it('follows the site’s links once each: fragments, tracking parameters, redirects and canonical copies folded, private redirects refused, traps capped', async () => {
      site = await addSite({ source_url: at('/'), maxPages: 12 });
      const urls = (await pagesOf(site.id)).map((page) => String(page.config.source_url));
      expect(urls).toEqual(expect.arrayContaining([at('/'), at('/about'), at('/faq')]));
      expect(new Set(urls).size).toBe(urls.length);
      expect(urls.filter((url) => url.includes('faq'))).toEqual([at('/faq')]);
      expect(urls).not.toContain(at('/about-copy'));
      expect(urls.some((url) => url.includes('10.0.0.1') || url.endsWith('/to-private') || url.endsWith('.png'))).toBe(false);
      const months = urls.filter((url) => url.includes('/calendar'));
      expect(months.length).toBeGreaterThan(0);
      expect(urls.length).toBeLessThanOrEqual(12);
      expect(linkSite.requests.filter((request) => request.path.startsWith('/calendar')).length).toBeLessThanOrEqual(12);
      const crawl = site.config.crawl!;
      expect(crawl).toMatchObject({ mode: 'links' });
      expect(crawl.capped).toBeGreaterThan(0);
      const reasons = crawl.problems.map((problem) => `${problem.url} ${problem.reason}`);
      expect(reasons.some((reason) => reason.includes('/to-private') && reason.includes('10.0.0.1 is a private address'))).toBe(true);
      expect(reasons.some((reason) => reason.includes('/about-copy') && reason.includes('A copy of'))).toBe(true);
      expect(reasons.some((reason) => reason.includes('/missing') && reason.includes('404'))).toBe(true);
    });

    it('keeps every page when the start page does not answer, and tries again later', async () => {
      const pages = await pagesOf(site.id);
      const home = linkSite.pages.get('/')!;
      linkSite.pages.set('/', { body: 'down for maintenance', status: 503 });
      try {
        expect((await parley.call('POST', `/datasources/${site.id}/resync`, { key: ws.key })).status).toBe(200);
        const waiting = await until(
          async () => (await get(site.id)).body,
          (body) => body.error !== null && body.error.includes('start page could not be fetched'),
          30_000,
        );
        expect(waiting.error).toMatch(/HTTP 503/);
        expect((await pagesOf(site.id)).map((page) => page.id).sort()).toEqual(pages.map((page) => page.id).sort());
      } finally {
        linkSite.pages.set('/', home);
      }
    });

    it('refuses a start URL Parley does not fetch, and a site without a start', async () => {
      const privateStart = await parley.call<ErrorBody>('POST', '/datasources', {
        key: ws.key,
        body: { type: 'web_site', datastoreId, config: { source_url: 'http://10.0.0.1/' } },
      });
      expect(privateStart.status).toBe(400);
      expect(privateStart.body.message).toMatch(/private address/);
      const none = await parley.call<ErrorBody>('POST', '/datasources', { key: ws.key, body: { type: 'web_site', datastoreId, config: {} } });
      expect(none.status).toBe(400);
      expect(none.body.error).toBe('INVALID_REQUEST');
    });
  });

  it('waits for a site whose robots.txt cannot be read, and keeps nothing it would have fetched', async () => {
    const down = new TestWebsite();
    await down.start();
    try {
      down.pages.set('/robots.txt', { body: 'unavailable', status: 503, contentType: 'text/plain' });
      down.pages.set('/', { body: html('Home', 'Hello.') });
      const created = await parley.call<DatasourceBody>('POST', '/datasources', {
        key: ws.key,
        body: { type: 'web_site', datastoreId, config: { source_url: `${down.url}/` } },
      });
      const failed = await until(
        async () => (await get(created.body.id)).body,
        (body) => body.error !== null && body.error.includes('robots.txt'),
        30_000,
      );
      expect(failed.error).toMatch(/robots\.txt could not be read \(The page answered HTTP 503\)/);
      expect(down.requests.map((request) => request.path)).not.toContain('/');
      expect(await pagesOf(created.body.id)).toEqual([]);
    } finally {
      await down.stop();
    }
  });
});
