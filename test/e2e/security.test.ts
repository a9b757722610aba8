import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { parleyTest } from '../support/parley-test.js';
import type { SignedInMember, TestParley, Workspace } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import { launchBrowser, openContext } from './support/browser.js';
import { signIn, useSession } from './support/dashboard.js';
import { apiCall, settled, uploadFile } from './support/seed.js';

/** Markup that would show, run or fetch something if it were ever parsed as HTML. */
const HOSTILE = {
  agent: `<img src="x" onerror="window.pwned='agent'"><b class="injected">Agent</b>`,
  datastore: `<i class="injected">Store</i>`,
  file: `<img src=x onerror="window.pwned='file'">.txt`,
  // Markup in a fenced block stays in the chunk as written (elsewhere the HTML reader strips it).
  chunk:
    '# Water\n\nBottles of water arrived.\n\n```html\n<script>window.pwned=\'chunk\'</script><b class="injected">bold</b><img src="x" onerror="window.pwned=\'chunk\'">\n```\n',
};

let browser: Browser;
let parley: TestParley;
let workspace: Workspace;
let owner: SignedInMember;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

parleyTest.beforeAll(async ({ startParley }) => {
  parley = await startParley(STORE_KINDS[0]!, { workers: true });
  workspace = await parley.newWorkspace('Acme support');
  owner = await parley.newMember(workspace.id, 'owner');
});

describe('without a session', () => {
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    ({ context, problems } = await openContext(browser, parley.url));
    page = await context.newPage();
  });
  afterAll(async () => {
    await context.close();
  });

  parleyTest('every workspace page leads to the sign-in page, which comes back to it', async () => {
    for (const path of ['/agents', '/datastores/ds_1?tab=search&q=water%20bottles', '/settings/keys', '/agents/new']) {
      await page.goto(`/dashboard${path}`);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      const url = new URL(page.url());
      expect(url.pathname).toBe('/dashboard/sign-in');
      expect(url.searchParams.get('next')).toBe(path);
    }
    await signIn(page, owner.email, owner.password);
    expect(new URL(page.url()).pathname).toBe('/dashboard/agents/new');
    await page.getByRole('heading', { name: 'New agent' }).waitFor();
    expect(problems).toEqual([]);
  });

  parleyTest('the sign-in page never leads to another site', async () => {
    await context.clearCookies();
    await page.goto('/dashboard/sign-in?next=//evil.example/steal');
    await signIn(page, owner.email, owner.password);
    const url = new URL(page.url());
    expect(url.origin).toBe(parley.url);
    expect(url.pathname).toBe('/dashboard/agents');
  });

  parleyTest('the dashboard is served under a strict CSP and cannot be framed', async () => {
    const response = await fetch(`${parley.url}/dashboard/agents`);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });
});

describe('text from people and models', () => {
  let page: Page;
  let problems: string[];
  let agentId: string;
  let datastoreId: string;

  beforeAll(async () => {
    const datastore = await apiCall(parley, workspace.key, 'POST', '/datastores', { name: HOSTILE.datastore });
    datastoreId = datastore.id;
    await uploadFile(parley, workspace.key, datastoreId, HOSTILE.file, new TextEncoder().encode('Plain notes about water bottles.'));
    await uploadFile(parley, workspace.key, datastoreId, 'Hostile chunk.md', new TextEncoder().encode(HOSTILE.chunk));
    const agent = await apiCall(parley, workspace.key, 'POST', '/agents', {
      name: HOSTILE.agent,
      description: HOSTILE.datastore,
      tools: [{ type: 'datastore', datastoreId }],
    });
    agentId = agent.id;
    await settled(parley, workspace.key, datastoreId);
    const opened = await openContext(browser, parley.url);
    problems = opened.problems;
    await useSession(opened.context, parley.url, owner.sessionSecret);
    page = await opened.context.newPage();
  });

  /** Nothing was made from the markup: no element, no image request, no script run; its text shows as typed. */
  async function expectInert(page: Page, visibleText: string[]): Promise<void> {
    expect(await page.locator('.injected').count()).toBe(0);
    expect(await page.locator('img[src="x"], script:not([src])').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as { pwned?: string }).pwned)).toBeUndefined();
    for (const text of visibleText) expect(await page.getByText(text, { exact: false }).count(), text).toBeGreaterThan(0);
  }

  parleyTest('an agent’s name shows as text in the list and on its page', async () => {
    await page.goto('/dashboard/agents');
    await page.getByRole('link', { name: HOSTILE.agent }).waitFor();
    await expectInert(page, [HOSTILE.agent]);
    await page.getByRole('link', { name: HOSTILE.agent }).click();
    await page.getByRole('heading', { name: HOSTILE.agent, level: 1 }).waitFor();
    await expectInert(page, [HOSTILE.agent, HOSTILE.datastore]);
    expect(await page.title()).toContain(HOSTILE.agent);
  });

  parleyTest('a datasource’s file name and a chunk show as text in the table, the chunk viewer, the search tester and the playground', async () => {
    await page.goto(`/dashboard/datastores/${datastoreId}`);
    await page.getByRole('row').filter({ hasText: HOSTILE.file }).getByText('Synched').waitFor();
    await expectInert(page, [HOSTILE.file, HOSTILE.datastore]);

    await page.getByRole('button', { name: 'Hostile chunk.md: view chunks' }).click();
    await page.getByRole('dialog', { name: 'Chunks of Hostile chunk.md' }).getByText('window.pwned', { exact: false }).waitFor();
    await expectInert(page, ['<b class="injected">bold</b>']);
    await page.keyboard.press('Escape');

    await page.goto(`/dashboard/datastores/${datastoreId}?tab=search&q=bottles%20of%20water&modes=keyword`);
    await page.getByRole('list', { name: 'Keyword hits' }).getByText('<script>', { exact: false }).first().waitFor();
    await expectInert(page, ['<b class="injected">bold</b>']);

    await page.goto(`/dashboard/agents/${agentId}?tab=playground`);
    await page.getByLabel('Your question').fill('What about bottles of water?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page
      .getByRole('log', { name: 'Conversation' })
      .getByText(/^\d+ sources?$/)
      .waitFor();
    await expectInert(page, [HOSTILE.file]);
    expect(problems).toEqual([]);
  });
});
