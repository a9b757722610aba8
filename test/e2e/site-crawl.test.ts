import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { parleyTest } from '../support/parley-test.js';
import type { SignedInMember, TestParley, Workspace } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import { TestWebsite } from '../support/test-website.js';
import { PHONE, launchBrowser, openContext, screenshots, seriousViolations } from './support/browser.js';
import { signIn } from './support/dashboard.js';
import { apiCall } from './support/seed.js';

const { html, urlset } = TestWebsite;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/**
 * A help centre on loopback: robots.txt names its sitemap, which lists four pages, one that is gone (404)
 * and one that redirects to a private address the test Parley's outbound policy refuses. A link only the
 * pages carry is not followed: the sitemap is what a crawl of a site with one reads.
 */
function helpCentre(site: TestWebsite): void {
  const at = (path: string) => `${site.url}${path}`;
  const nav = { links: ['/help/shipping', '/help/returns', '/help/contact'] };
  site.pages.set('/robots.txt', {
    body: `User-agent: *\nDisallow: /help/internal/\n\nSitemap: ${at('/sitemap.xml')}\n`,
    contentType: 'text/plain',
  });
  site.pages.set('/sitemap.xml', {
    body: urlset([
      { loc: at('/help/shipping'), lastmod: '2026-11-01' },
      { loc: at('/help/returns') },
      { loc: at('/help/warranty') },
      { loc: at('/help/hours') },
      { loc: at('/help/old-catalogue') },
      { loc: at('/help/partner-portal') },
      { loc: at('/help/internal/pricing') },
    ]),
    contentType: 'application/xml',
  });
  site.pages.set('/help/shipping', { body: html('Shipping', 'Parcels to the United Kingdom arrive within three days.', nav), etag: '"s1"' });
  site.pages.set('/help/returns', { body: html('Returns', 'Returns are accepted within thirty days of delivery.', nav) });
  site.pages.set('/help/warranty', { body: html('Warranty', 'Every kettle carries a two year warranty.', nav) });
  site.pages.set('/help/hours', { body: html('Opening hours', 'The shop opens at nine and closes at six.', nav) });
  site.pages.set('/help/partner-portal', { body: '', status: 302, location: 'http://10.0.0.1/' });
  site.pages.set('/help/internal/pricing', { body: html('Internal', 'Staff only.') });
}

/** Adding a website from the datastore page: its row follows the crawl, lists its pages beneath it and says which it could not keep. */
describe.each(STORE_KINDS.slice(0, 1))('a website datasource in the dashboard on %s', (kind) => {
  const site = new TestWebsite();
  let parley: TestParley;
  let workspace: Workspace;
  let owner: SignedInMember;

  beforeAll(async () => {
    await site.start();
    helpCentre(site);
  });
  afterAll(() => site.stop());

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind, { workers: true });
    workspace = await parley.newWorkspace('Kettle shop');
    owner = await parley.newMember(workspace.id, 'owner');
    await apiCall(parley, workspace.key, 'POST', '/datastores', { name: 'Help centre' });
  });

  parleyTest('an owner adds a website; its row reaches Synched with its crawl, its pages show beneath it', async () => {
    const { context, problems } = await openContext(browser, parley.url);
    const page = await context.newPage();
    await page.goto('/dashboard/sign-in');
    await signIn(page, owner.email, owner.password);
    await page.getByRole('link', { name: 'Datastores' }).first().click();
    await page.getByRole('link', { name: 'Help centre' }).click();
    await page.getByRole('heading', { name: 'Help centre' }).waitFor();

    await page.getByRole('button', { name: 'Add website' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a website' });
    await dialog.getByLabel('Start page or sitemap (URL)').fill(`${site.url}/help/`);
    await dialog.getByLabel('Name').fill('Kettle help');
    expect(await dialog.getByLabel('Crawl again').inputValue()).toBe('weekly');
    await screenshots(page, 'site-crawl-add-dialog', { fullPage: false });
    expect(await seriousViolations(page)).toEqual([]);
    // On a phone the dialog scrolls: its end, with the page limit, the schedule and the button.
    const submit = dialog.getByRole('button', { name: 'Add website' });
    await page.setViewportSize(PHONE);
    await submit.scrollIntoViewIfNeeded();
    await screenshots(page, 'site-crawl-add-dialog-end', { fullPage: false, viewports: [PHONE] });
    await submit.click();
    await dialog.waitFor({ state: 'detached' });

    const siteRow = page.getByRole('row').filter({ has: page.getByText('Kettle help', { exact: true }) });
    await siteRow.getByText(`Website · ${site.url}/help/`).waitFor();
    const crawl = siteRow.getByRole('status', { name: 'Crawl of Kettle help' });
    await expect
      .poll(() => crawl.textContent(), { timeout: 60_000 })
      .toMatch(/^Crawled from its sitemap .+?: 6 pages found · 4 fetched · 4 new or changed · 2 failed/);
    await expect.poll(() => siteRow.getByText('Synched', { exact: true }).isVisible()).toBe(true);
    await siteRow.getByRole('button', { name: 'Crawl again: Kettle help' }).waitFor();

    // The pages are hidden until asked for; shown, each is a row of its own, indexed on its own.
    const pageRows = page.getByRole('row').filter({ hasText: 'Page of the website' });
    expect(await pageRows.count()).toBe(0);
    const show = siteRow.getByRole('button', { name: 'Show its 4 pages' });
    expect(await show.getAttribute('aria-expanded')).toBe('false');
    await show.click();
    const hide = siteRow.getByRole('button', { name: 'Hide its 4 pages' });
    expect(await hide.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => pageRows.count()).toBe(4);
    for (const path of ['/help/shipping', '/help/returns', '/help/warranty', '/help/hours']) {
      const row = pageRows.filter({ has: page.getByRole('button', { name: `${site.url}${path}: view chunks` }) });
      await expect.poll(() => row.getByText('Synched', { exact: true }).isVisible(), { timeout: 60_000 }).toBe(true);
    }
    await expect
      .poll(() =>
        page
          .getByRole('status')
          .getByText(/Processing/)
          .count(),
      )
      .toBe(0);
    // Not kept: the page gone from the site, and the one redirecting to an address Parley does not fetch.
    await siteRow.getByText('2 pages not kept').click();
    const notKept = siteRow.getByRole('listitem');
    await expect.poll(() => notKept.count()).toBe(2);
    await notKept
      .filter({ hasText: `${site.url}/help/old-catalogue` })
      .getByText(/404/)
      .waitFor();
    await notKept
      .filter({ hasText: `${site.url}/help/partner-portal` })
      .getByText(/10\.0\.0\.1 is a private address/)
      .waitFor();
    expect(await page.getByText('/help/internal/').count()).toBe(0);
    expect(await page.getByText('/help/contact').count()).toBe(0);

    await screenshots(page, 'site-crawl-expanded');
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      expect(await seriousViolations(page), colorScheme).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });

    await hide.click();
    await expect.poll(() => pageRows.count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});
