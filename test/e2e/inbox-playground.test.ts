import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { parleyTest } from '../support/parley-test.js';
import type { SignedInMember, TestParley, Workspace } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import { launchBrowser, openContext, screenshots, seriousViolations } from './support/browser.js';
import { useSession } from './support/dashboard.js';
import { apiCall } from './support/seed.js';

/**
 * A question asked in an agent's playground is the team's own test. The playground
 * shows its answer; the inbox leaves the conversation out until "Include playground" is checked, while an
 * API client's conversation on channel dashboard is listed as any other.
 */
let browser: Browser;
let parley: TestParley;
let workspace: Workspace;
let owner: SignedInMember;
let page: Page;
let problems: string[];
let agentId: string;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

parleyTest.beforeAll(async ({ startParley }) => {
  parley = await startParley(STORE_KINDS[0]!);
  workspace = await parley.newWorkspace('Acme support');
  owner = await parley.newMember(workspace.id, 'owner');
  agentId = (await apiCall<{ id: string }>(parley, workspace.key, 'POST', '/agents', { name: 'Support bot' })).id;
  const opened = await openContext(browser, parley.url);
  problems = opened.problems;
  await useSession(opened.context, parley.url, owner.sessionSecret);
  page = await opened.context.newPage();
});

const listed = () => page.getByRole('list', { name: 'Conversations' }).getByRole('listitem');

parleyTest('the playground’s questions stay out of the inbox until asked for', async () => {
  // Empty: the team only tried its agent.
  await page.goto(`/dashboard/agents/${agentId}?tab=playground`);
  await page.getByLabel('Your question').fill('Just testing: do you ship abroad?');
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('log', { name: 'Conversation' }).getByText('Just testing: do you ship abroad?').waitFor();
  await page.getByRole('button', { name: 'Send' }).waitFor();

  await page.goto('/dashboard/inbox?tab=all');
  await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
  await page.getByText('Nothing here').waitFor();
  await screenshots(page, 'inbox-playground-empty');

  // An integration writing on channel dashboard is a real conversation.
  await apiCall(parley, workspace.key, 'POST', `/agents/${agentId}/query`, { query: 'Order 1234 has not arrived', channel: 'dashboard' });
  await page.reload();
  await expect.poll(() => listed().count()).toBe(1);
  await listed().getByText('Support bot', { exact: true }).waitFor();
  expect(await listed().locator('.channel-tag').allInnerTexts()).toEqual(['Dashboard']);
  await expect.poll(() => page.getByRole('tab', { name: /^All/ }).textContent()).toMatch(/^All1/);

  // The switch shows the team's tests too, in the URL.
  await page.getByText(/^Filters/).click();
  await page.getByRole('checkbox', { name: /Include playground/ }).check();
  await page.waitForURL((url) => url.searchParams.get('playground') === '1');
  await expect.poll(() => listed().count()).toBe(2);
  expect(await listed().filter({ hasText: 'Playground' }).count()).toBe(1);
  await expect.poll(() => page.getByRole('tab', { name: /^All/ }).textContent()).toMatch(/^All2/);
  await screenshots(page, 'inbox-playground-included');
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await seriousViolations(page)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });

  await page.getByRole('checkbox', { name: /Include playground/ }).uncheck();
  await page.waitForURL((url) => url.searchParams.get('playground') === null);
  await expect.poll(() => listed().count()).toBe(1);
  expect(problems).toEqual([]);
});
