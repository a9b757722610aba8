import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { parleyTest } from '../support/parley-test.js';
import type { TestParley } from '../support/parley.js';
import { SmtpSink } from '../support/smtp-sink.js';
import { STORE_KINDS } from '../support/stores.js';
import { launchBrowser, openContext } from './support/browser.js';
import { dashboardLinkIn, signIn, signOut } from './support/dashboard.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/docs');
const OWNER = { name: 'Olivia Owner', email: 'olivia@example.com', password: 'correct horse battery staple' };
const MEMBER = { name: 'Mia Member', email: 'mia@example.com', password: 'another long passphrase' };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(STORE_KINDS)('the dashboard on %s', (kind) => {
  let parley: TestParley;
  let sink: SmtpSink;
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];

  parleyTest.beforeAll(async ({ startParley }) => {
    sink = await SmtpSink.start();
    parley = await startParley(kind, { workers: true, env: { PARLEY_SMTP_URL: sink.url } });
    await parley.newWorkspace('Acme support');
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await sink?.close();
    // The other store's Parley need not share the two cores with this one.
    await parley?.close();
  });

  const newPage = async (): Promise<Page> => {
    const opened = await openContext(browser, parley.url);
    contexts.push(opened.context);
    opened.problems.length = 0;
    const page = await opened.context.newPage();
    page.on('close', () => problems.push(...opened.problems));
    Object.defineProperty(page, 'problems', { value: opened.problems });
    return page;
  };
  const problemsOf = (page: Page) => (page as Page & { problems: string[] }).problems;

  parleyTest('an owner sets up Parley, indexes documents, tries an agent and invites a member who cannot manage members', async () => {
    const owner = await newPage();

    // The setup link printed at the first start creates the owner's account.
    const setup = await parley.core.services.accounts.setupLink();
    await owner.goto(`/dashboard/setup?token=${setup!.token}`);
    await owner.getByLabel('Your name').fill(OWNER.name);
    await owner.getByLabel('E-mail').fill(OWNER.email);
    await owner.getByLabel('Password').fill(OWNER.password);
    await owner.getByRole('button', { name: 'Create the owner account' }).click();
    await owner.getByRole('heading', { name: 'No agents yet' }).waitFor();

    // Signing out and in again.
    await signOut(owner);
    await signIn(owner, OWNER.email, OWNER.password);
    await owner.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();

    // A key, shown once, that works over HTTP.
    await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await owner.getByRole('heading', { name: 'API keys' }).waitFor();
    await owner.getByRole('button', { name: 'New key' }).click();
    await owner.getByLabel('Name').fill('Journey key');
    await owner.getByRole('button', { name: 'Create key' }).click();
    const key = await owner.getByLabel('The key “Journey key”').inputValue();
    await owner.getByRole('button', { name: 'Done' }).click();
    await owner.getByRole('cell', { name: 'Journey key', exact: true }).waitFor();
    expect((await parley.call('GET', '/agents', { key })).status).toBe(200);

    // A datastore with two documents, indexed while the page watches.
    await owner.getByRole('link', { name: 'Datastores' }).click();
    await owner.getByRole('heading', { name: 'No datastores yet' }).waitFor();
    await owner.getByRole('button', { name: 'New datastore' }).click();
    await owner.getByLabel('Name').fill('Handbook');
    await owner.getByRole('button', { name: 'Create datastore' }).click();
    await owner.getByRole('heading', { name: 'Handbook', level: 1 }).waitFor();
    await owner.evaluate(() => Object.assign(globalThis, { notReloaded: true }));
    await owner.getByLabel('Choose files').setInputFiles([path.join(FIXTURES, 'pdf-memo-1p.pdf'), path.join(FIXTURES, 'md-ibm-wiki.md')]);
    for (const file of ['pdf-memo-1p.pdf', 'md-ibm-wiki.md']) {
      await owner.getByRole('row').filter({ hasText: file }).getByText('Synched').waitFor({ timeout: 90_000 });
    }
    expect(await owner.evaluate(() => 'notReloaded' in globalThis)).toBe(true);

    // The search tester finds the memo in all three modes, its state in the URL.
    await owner.getByRole('tab', { name: 'Search tester' }).click();
    await owner.getByLabel('Query').fill('How many bottles of water were delivered?');
    await owner.getByRole('button', { name: 'Search' }).click();
    for (const mode of ['Hybrid', 'Vector', 'Keyword']) {
      const first = owner
        .getByRole('list', { name: `${mode} hits` })
        .getByRole('listitem')
        .first();
      await first.waitFor();
      expect(await first.textContent()).toMatch(/^-?\d\.\d{3}pdf-memo-1p\.pdf.*20,000 bottles of water/s);
    }
    expect(new URL(owner.url()).searchParams.get('q')).toBe('How many bottles of water were delivered?');

    // An agent using the datastore answers in the playground, streamed, with its sources.
    await owner.getByRole('link', { name: 'Agents' }).click();
    await owner.getByRole('link', { name: 'New agent' }).click();
    await owner.getByLabel('Name').fill('Support bot');
    await owner.getByLabel('Handbook').check();
    await owner.getByRole('button', { name: 'Create agent' }).click();
    await owner.getByRole('tab', { name: 'Playground', selected: true }).waitFor();
    await owner.getByLabel('Your question').fill('How many bottles of water were delivered?');
    const asked = owner.waitForResponse((response) => response.url().endsWith('/query') && response.request().method() === 'POST');
    await owner.getByRole('button', { name: 'Send' }).click();
    const response = await asked;
    expect(response.request().postDataJSON()).toMatchObject({ query: 'How many bottles of water were delivered?', streaming: true });
    expect(response.headers()['content-type']).toContain('text/event-stream');
    const answer = owner.getByRole('log', { name: 'Conversation' });
    await answer
      .getByText(/20,000 bottles/)
      .first()
      .waitFor();
    await answer.getByText(/^\d+ sources?$/).waitFor();
    await answer
      .getByRole('listitem')
      .filter({ hasText: 'pdf-memo-1p.pdf' })
      .getByText(/score \d\.\d{3}/)
      .waitFor();

    // A member is invited; the e-mail carries the link.
    await owner.getByRole('link', { name: 'Settings' }).click();
    await owner.getByRole('link', { name: 'Members' }).click();
    await owner.getByRole('button', { name: 'Invite member' }).click();
    await owner.getByLabel('E-mail').fill(MEMBER.email);
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByText(`${MEMBER.email} is invited: the invitation is on its way by e-mail.`).waitFor();
    await owner.getByRole('button', { name: 'Done' }).click();
    await owner.getByRole('row').filter({ hasText: MEMBER.email }).getByText('Invited').waitFor();
    const mails = await sink.waitFor(1);
    const invitation = mails.find((mail) => mail.to.includes(MEMBER.email));
    expect(invitation).toBeDefined();
    expect(problemsOf(owner)).toEqual([]);

    // The member joins, signs in, sees the keys and cannot manage members.
    const member = await newPage();
    await member.goto(dashboardLinkIn(invitation!, parley.url));
    await member.getByRole('heading', { name: 'Join Acme support' }).waitFor();
    await member.getByLabel('Your name (for a new account)').fill(MEMBER.name);
    await member.getByLabel('Password').fill(MEMBER.password);
    await member.getByRole('button', { name: 'Accept the invitation' }).click();
    await member.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
    await signOut(member);
    await signIn(member, MEMBER.email, MEMBER.password);
    await member.getByRole('link', { name: 'Settings' }).click();
    await member.getByRole('heading', { name: 'API keys' }).waitFor();
    await member.getByRole('cell', { name: 'Journey key', exact: true }).waitFor();
    await member.getByRole('link', { name: 'Members' }).click();
    await member.getByText('Only owners and admins can manage members.').waitFor();
    await member.getByRole('row').filter({ hasText: OWNER.email }).waitFor();
    expect(await member.getByRole('button', { name: 'Invite member' }).count()).toBe(0);
    expect(await member.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
    expect(await member.getByRole('combobox', { name: /^Role of/ }).count()).toBe(0);
    expect(problemsOf(member)).toEqual([]);
  });
});
