import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { parleyTest } from '../support/parley-test.js';
import type { SignedInMember, TestParley, Workspace } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import type { DatasourceBody } from '../support/bodies.js';
import { launchBrowser, openContext, screenshots } from './support/browser.js';
import { useSession } from './support/dashboard.js';
import { apiCall, settled, uploadFile } from './support/seed.js';

const HOURS = Buffer.from('The bakery opens at seven in the morning and closes at six in the evening.\n');
const GIFT_CARDS = 'Gift cards never expire and can be used in every shop.';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Adding what a datastore holds already: the page names the datasource holding it; the person replaces it or keeps both. */
describe.each(STORE_KINDS.slice(0, 1))('duplicate datasources in the dashboard on %s', (kind) => {
  let parley: TestParley;
  let workspace: Workspace;
  let owner: SignedInMember;
  let datastoreId: string;
  let hoursId: string;

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind, { workers: true });
    workspace = await parley.newWorkspace('Bakery');
    owner = await parley.newMember(workspace.id, 'owner');
    datastoreId = (await apiCall(parley, workspace.key, 'POST', '/datastores', { name: 'Shop' })).id;
    hoursId = (await uploadFile(parley, workspace.key, datastoreId, 'hours.txt', HOURS)).id;
    await apiCall(parley, workspace.key, 'POST', '/datasources', { type: 'text', datastoreId, name: 'Gift cards', text: GIFT_CARDS });
    await settled(parley, workspace.key, datastoreId);
  });

  const listed = () => apiCall<DatasourceBody[]>(parley, workspace.key, 'GET', `/datastores/${datastoreId}/datasources`);

  async function datastorePage(): Promise<{ page: Page; problems: string[] }> {
    const { context, problems } = await openContext(browser, parley.url);
    await useSession(context, parley.url, owner.sessionSecret);
    const page = await context.newPage();
    await page.goto(`/dashboard/datastores/${datastoreId}`);
    await page.getByRole('row').filter({ hasText: 'hours.txt' }).waitFor();
    return { page, problems };
  }

  const dropFile = (page: Page, name: string) => page.getByLabel('Choose files').setInputFiles({ name, mimeType: 'text/plain', buffer: HOURS });

  parleyTest('a file uploaded again is named with its holder; keep both adds it, replace takes its place', async () => {
    const { page, problems } = await datastorePage();

    await dropFile(page, 'opening-hours.txt');
    const upload = page.getByRole('list', { name: 'Uploads' }).getByRole('listitem').filter({ hasText: 'opening-hours.txt' });
    await upload.getByRole('alert').getByText('The datastore already has this file, as “hours.txt”.').waitFor();
    await screenshots(page, 'duplicate-upload');
    expect(await listed()).toHaveLength(2);
    await upload.getByRole('button', { name: 'Keep both' }).click();
    await page.getByRole('row').filter({ hasText: 'opening-hours.txt' }).waitFor();
    await upload.waitFor({ state: 'detached' });
    expect((await listed()).map((datasource) => datasource.name).sort()).toEqual(['Gift cards', 'hours.txt', 'opening-hours.txt']);

    // The same bytes again: the oldest holder is named, and replacing it keeps its id under the new name.
    await dropFile(page, 'hours-2026.txt');
    const again = page.getByRole('list', { name: 'Uploads' }).getByRole('listitem').filter({ hasText: 'hours-2026.txt' });
    await again.getByRole('alert').getByText('as “hours.txt”').waitFor();
    await again.getByRole('button', { name: 'Replace' }).click();
    await page.getByRole('row').filter({ hasText: 'hours-2026.txt' }).waitFor();
    await expect.poll(async () => (await listed()).find((datasource) => datasource.id === hoursId)?.name).toBe('hours-2026.txt');
    expect(await listed()).toHaveLength(3);
    await settled(parley, workspace.key, datastoreId);
    expect(problems).toEqual([]);
  });

  parleyTest('a text added again is named in its dialog; keep both adds it', async () => {
    const { page, problems } = await datastorePage();
    await page.getByRole('button', { name: 'Add text' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add text' });
    await dialog.getByLabel('Text').fill(GIFT_CARDS);
    await dialog.getByRole('button', { name: 'Add text' }).click();
    await dialog.getByRole('alert').getByText('The datastore already has this text, as “Gift cards”.').waitFor();
    await screenshots(page, 'duplicate-text');
    const before = (await listed()).length;
    await dialog.getByRole('button', { name: 'Keep both' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(async () => (await listed()).length).toBe(before + 1);
    expect(problems).toEqual([]);
  });
});
