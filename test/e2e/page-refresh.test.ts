import http from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { DatasourceBody } from '../support/bodies.js';
import { waitForDatasource } from '../support/datasources.js';
import { closeServer, listenOnLoopback } from '../support/loopback-server.js';
import { parleyTest } from '../support/parley-test.js';
import type { SignedInMember, TestParley, Workspace } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import { until } from '../support/until.js';
import { launchBrowser, openContext, screenshots, seriousViolations } from './support/browser.js';
import { useSession } from './support/dashboard.js';
import { apiCall } from './support/seed.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PAGE =
  '<html><head><title>Delivery</title></head><body><main><h1>Delivery</h1><p>Parcels leave the warehouse every weekday.</p></main></body></html>';

/** A URL datasource's row shows its re-check schedule, what the last check found, and changes the interval in place. */
describe.each(STORE_KINDS.slice(0, 1))('a web page’s re-check schedule in the dashboard on %s', (kind) => {
  const site = http.createServer((request, response) => {
    if (request.headers['if-none-match'] === '"v1"') return void response.writeHead(304, { etag: '"v1"' }).end();
    response.writeHead(200, { 'content-type': 'text/html', etag: '"v1"' }).end(PAGE);
  });
  let parley: TestParley;
  let workspace: Workspace;
  let owner: SignedInMember;
  let datastoreId: string;
  let datasource: DatasourceBody;

  parleyTest.beforeAll(async ({ startParley }) => {
    const siteUrl = await listenOnLoopback(site);
    parley = await startParley(kind, { workers: true });
    workspace = await parley.newWorkspace('Shop');
    owner = await parley.newMember(workspace.id, 'owner');
    datastoreId = (await apiCall(parley, workspace.key, 'POST', '/datastores', { name: 'Help centre' })).id;
    const created = await apiCall<DatasourceBody>(parley, workspace.key, 'POST', '/datasources', {
      type: 'web_page',
      datastoreId,
      name: 'Delivery',
      config: { source_url: `${siteUrl}/delivery`, refreshInterval: 'daily' },
    });
    await waitForDatasource(parley, workspace.key, created.id);
    await apiCall(parley, workspace.key, 'POST', `/datasources/${created.id}/resync`);
    datasource = await until(
      () => apiCall<DatasourceBody>(parley, workspace.key, 'GET', `/datasources/${created.id}`),
      (body) => body.status === 'synched' && body.config.lastCheck?.outcome === 'unchanged',
    );
  }, 120_000);
  afterAll(() => closeServer(site));

  parleyTest('shows the last check and the next, and changes the interval from the row', async () => {
    const { context, problems } = await openContext(browser, parley.url);
    await useSession(context, parley.url, owner.sessionSecret);
    const page = await context.newPage();
    await page.goto(`/dashboard/datastores/${datastoreId}`);
    const row = page.getByRole('row').filter({ hasText: 'Delivery' });
    await expect.poll(() => row.getByText(/Checked .*: unchanged/).isVisible()).toBe(true);
    await expect.poll(() => row.getByText(/Next check tomorrow|Next check in 1 day|Next check in 24 hours/).isVisible()).toBe(true);
    const select = page.getByLabel('Re-check Delivery');
    expect(await select.inputValue()).toBe('daily');
    await screenshots(page, 'page-refresh-row');
    const violations = await seriousViolations(page);

    await select.selectOption('weekly');
    const changed = await until(
      () => apiCall<DatasourceBody>(parley, workspace.key, 'GET', `/datasources/${datasource.id}`),
      (body) => body.config.refreshInterval === 'weekly',
    );
    expect(Date.parse(changed.config.nextRefreshAt ?? '')).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    await expect.poll(() => row.getByText(/Next check in 7 days|Next check next week/).isVisible()).toBe(true);
    await select.selectOption('off');
    await expect.poll(() => row.getByText(/Next check/).count()).toBe(0);

    await page.getByRole('button', { name: 'Add web page' }).click();
    const dialogSelect = page.getByRole('dialog').getByLabel('Re-check');
    expect(await dialogSelect.inputValue()).toBe('off');
    await screenshots(page, 'page-refresh-add-dialog', { fullPage: false });
    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
