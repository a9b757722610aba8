import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { LabelBody } from '../../src/contract/labels.js';
import type { VisitorTranscriptBody } from '../../src/contract/visitor-conversation.js';
import type { AnswerBody, ConversationBody } from '../support/bodies.js';
import { parleyTest } from '../support/parley-test.js';
import type { SignedInMember, TestParley, Workspace } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import { until } from '../support/until.js';
import { launchBrowser, openContext, screenshots, seriousViolations } from './support/browser.js';
import { useSession } from './support/dashboard.js';
import { apiCall } from './support/seed.js';

/**
 * The support basics in the inbox against a real Parley: a saved reply inserted with `/`, a private note,
 * labels put on in the thread and in bulk and filtered by, and the visit beside the thread. Both stores;
 * screenshots and the accessibility check on the first only.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const CHROME_ON_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const QUESTION = 'Can I still return the rain jacket I bought online three weeks ago, or is it too late for a refund now?';
const REFUND_TEXT = 'You can return anything within 30 days for a full refund. <b>No</b> questions asked.';

/** The page's globals read here (the tests compile without the DOM library). */
interface Globals {
  document: { activeElement: { value?: string } | null };
}

// The screens are the same on every store; test/api/inbox-basics.test.ts runs the rules on both.
describe.each(STORE_KINDS.slice(0, 1))('the inbox basics on %s', (kind) => {
  let parley: TestParley;
  let workspace: Workspace;
  let owner: SignedInMember;
  let agentId: string;
  let first: AnswerBody;
  let second: AnswerBody;
  let billing: LabelBody;
  let urgent: LabelBody;
  const contexts: BrowserContext[] = [];

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind);
    workspace = await parley.newWorkspace('Outdoor shop');
    owner = await parley.newMember(workspace.id, 'owner');
    await parley.core.store.users.update(owner.userId, { name: 'Olivia Owner' }, new Date().toISOString());
    const key = workspace.key;
    agentId = (await apiCall(parley, key, 'POST', '/agents', { name: 'Shop bot', visibility: 'public' })).id;
    await apiCall(parley, key, 'POST', '/saved-replies', { shortcut: 'refund-policy', title: 'Refund policy', text: REFUND_TEXT });
    await apiCall(parley, key, 'POST', '/saved-replies', { shortcut: 'hello', title: 'Greeting', text: 'Hello! Thanks for writing.' });
    billing = await apiCall<LabelBody>(parley, key, 'POST', '/labels', { name: 'Billing', color: '#2563eb' });
    urgent = await apiCall<LabelBody>(parley, key, 'POST', '/labels', { name: 'Urgent', color: '#dc2626' });
    const ask = async (query: string, extra: Record<string, unknown>) =>
      (await parley.call<AnswerBody>('POST', `/agents/${agentId}/query`, { key: null, body: { query, ...extra } })).body;
    first = await ask('Do you ship to Norway?', {});
    second = await ask(QUESTION, {
      visitorId: first.visitorId,
      context: {
        pageUrl: 'https://shop.example/returns?from=footer',
        referrer: 'https://search.example/?q=jacket+returns',
        language: 'nb-NO',
        userAgent: CHROME_ON_MAC,
      },
    });
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
  });

  const ownerPage = async (): Promise<{ page: Page; problems: string[] }> => {
    const { context, problems } = await openContext(browser, parley.url);
    contexts.push(context);
    await useSession(context, parley.url, owner.sessionSecret);
    return { page: await context.newPage(), problems };
  };

  const openThread = async (page: Page, id: string) => {
    await page.goto(`/dashboard/conversations/${id}`);
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
  };

  parleyTest('the thread is titled by the first question, and the visit shows beside it', async () => {
    const { page, problems } = await ownerPage();
    await openThread(page, second.conversationId);
    const title = QUESTION.slice(0, 79).trimEnd();
    await page.getByRole('heading', { level: 2, name: `${title}…` }).waitFor();
    await page
      .getByRole('list', { name: 'Conversations' })
      .getByRole('link', { name: /Do you ship to Norway\?/ })
      .waitFor();

    const panel = page.getByRole('complementary', { name: 'Visitor and conversation details' });
    await panel.getByText('Yes: 1 earlier conversation', { exact: true }).waitFor();
    await panel.getByText('Chrome 131 on macOS', { exact: true }).waitFor();
    await panel.getByText('nb-NO', { exact: true }).waitFor();
    const pageLink = panel.getByRole('link', { name: 'https://shop.example/returns?from=footer' });
    expect(await pageLink.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await panel.getByRole('link', { name: 'https://search.example/?q=jacket+returns' }).getAttribute('rel')).toBe('noopener noreferrer');
    await screenshots(page, 'inbox-basics-visit');
    expect(problems).toEqual([]);
  });

  parleyTest('typing / offers the saved replies: arrows choose, Enter inserts the text as text, Esc closes', async () => {
    const { page, problems } = await ownerPage();
    await openThread(page, second.conversationId);
    const box = page.getByRole('textbox', { name: 'Reply to the visitor' });
    const menu = page.getByRole('listbox', { name: 'Saved replies' });

    await box.fill('Hi! /');
    await menu.waitFor();
    expect(await menu.getByRole('option').allTextContents()).toEqual([expect.stringContaining('/hello'), expect.stringContaining('/refund-policy')]);
    await box.pressSequentially('ref');
    expect(await menu.getByRole('option').count()).toBe(1);
    await screenshots(page, 'inbox-basics-saved-replies', { fullPage: false });
    await box.press('Enter');
    await menu.waitFor({ state: 'detached' });
    expect(await box.inputValue()).toBe(`Hi! ${REFUND_TEXT}`);

    // Esc closes the list and keeps the text; a slash inside a word opens nothing.
    await box.fill('');
    await box.pressSequentially('/');
    await menu.waitFor();
    await box.press('ArrowDown');
    expect(await menu.getByRole('option', { selected: true }).textContent()).toContain('/refund-policy');
    await box.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await box.inputValue()).toBe('/');
    await box.fill('and/or');
    expect(await menu.count()).toBe(0);

    // Tab inserts too; the reply goes out as written, its markup as text.
    await box.fill('/hel');
    await box.press('Tab');
    expect(await page.evaluate(() => (globalThis as unknown as Globals).document.activeElement?.value)).toBe('Hello! Thanks for writing.');
    await box.fill(`/refund`);
    await box.press('Enter');
    await box.press('Enter');
    const log = page.getByRole('log', { name: 'Messages' });
    await log.getByRole('listitem').filter({ hasText: REFUND_TEXT }).waitFor();
    expect(await log.locator('b').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  parleyTest('a private note shows as one in the thread and never reaches the visitor', async () => {
    const { page, problems } = await ownerPage();
    await openThread(page, first.conversationId);
    await page.getByRole('button', { name: 'Private note' }).click();
    const box = page.getByRole('textbox', { name: 'Private note for the team' });
    await box.fill('Reseller: check the contract before answering <script>');
    await page.getByRole('button', { name: 'Add note' }).click();
    const note = page.getByRole('log', { name: 'Messages' }).getByRole('listitem').filter({ hasText: 'Reseller: check the contract' });
    await note.getByText('Private note', { exact: true }).waitFor();
    await note.getByText('Reseller: check the contract before answering <script>', { exact: true }).waitFor();
    await screenshots(page, 'inbox-basics-note');

    const detail = await apiCall<ConversationBody>(parley, workspace.key, 'GET', `/conversations/${first.conversationId}`);
    expect(detail).toMatchObject({ status: 'UNRESOLVED', isAiEnabled: true, assignee: null });
    const transcript = await parley.call<VisitorTranscriptBody>('GET', `/agents/${agentId}/conversation`, { key: first.visitorToken });
    expect(transcript.body.messages.map((message) => message.text).join('\n')).not.toContain('Reseller');
    expect(problems).toEqual([]);
  });

  parleyTest('labels go on in the thread and in bulk, show as chips and filter the list', async () => {
    const { page, problems } = await ownerPage();
    await openThread(page, first.conversationId);
    await page.getByRole('button', { name: 'Labels' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Urgent' }).click();
    const header = page.locator('.thread-head');
    await header.getByRole('list', { name: 'Labels' }).getByText('Urgent', { exact: true }).waitFor();

    // Every conversation listed gets Billing.
    await page.goto('/dashboard/inbox');
    const list = page.getByRole('list', { name: 'Conversations' });
    await list.getByRole('link').nth(1).waitFor();
    await page.getByRole('button', { name: 'Label all…' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByLabel('Label', { exact: true }).selectOption({ label: 'Billing' });
    await dialog.getByRole('button', { name: 'Add “Billing”' }).click();
    await page.getByRole('status').filter({ hasText: '“Billing” added to 2 conversations.' }).waitFor();
    await until(
      async () => (await list.getByRole('list', { name: 'Labels' }).filter({ hasText: 'Billing' }).count()) === 2,
      (done) => done,
    );

    // The label filter: only the urgent one; kept in the address.
    await page.getByText('Filters', { exact: true }).click();
    await page.getByLabel('Label', { exact: true }).selectOption({ label: 'Urgent' });
    await page.waitForURL(`**/inbox?label=${urgent.id}`);
    await until(
      () => list.getByRole('link').count(),
      (count) => count === 1,
    );
    await list.getByRole('link', { name: /Do you ship to Norway\?/ }).waitFor();
    await screenshots(page, 'inbox-basics-labels', { fullPage: false });

    // Bulk removal, then the filter by Billing shows none.
    await page.getByRole('button', { name: 'Label all…' }).click();
    await dialog.getByLabel('Label', { exact: true }).selectOption({ label: 'Billing' });
    await dialog.getByLabel('Remove the label').check();
    await dialog.getByRole('button', { name: 'Remove “Billing”' }).click();
    await page.getByRole('status').filter({ hasText: '“Billing” removed from 1 conversation.' }).waitFor();
    const labelsOf = async (id: string) =>
      (await apiCall<ConversationBody>(parley, workspace.key, 'GET', `/conversations/${id}`)).labels.map((label) => label.name);
    expect(await labelsOf(first.conversationId)).toEqual(['Urgent']);
    expect(await labelsOf(second.conversationId)).toEqual([billing.name]);
    expect(problems).toEqual([]);
  });

  parleyTest('saved replies and labels are managed in the settings', async () => {
    const { page, problems } = await ownerPage();
    await page.goto('/dashboard/settings/saved-replies');
    const table = page.getByRole('table', { name: 'Saved replies' });
    await table.getByText('/refund-policy', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'New saved reply' }).click();
    const dialog = page.getByRole('dialog', { name: 'New saved reply' });
    await dialog.getByLabel('Shortcut').fill('Bad Shortcut');
    await dialog.getByLabel('Title').fill('Opening hours');
    await dialog.getByLabel('Text').fill('We are open 9–17, Monday to Friday.');
    await dialog.getByRole('button', { name: 'Save reply' }).click();
    await dialog.getByText(/must match/).waitFor();
    await dialog.getByLabel('Shortcut').fill('hours');
    await dialog.getByRole('button', { name: 'Save reply' }).click();
    await table.getByText('/hours', { exact: true }).waitFor();
    await screenshots(page, 'inbox-basics-settings');

    await page.goto('/dashboard/settings/labels');
    await page.getByRole('table', { name: 'Labels' }).getByText('Urgent', { exact: true }).waitFor();
    const violations = await seriousViolations(page);
    await openThread(page, second.conversationId);
    await page.getByRole('textbox', { name: 'Reply to the visitor' }).fill('/');
    await page.getByRole('listbox', { name: 'Saved replies' }).waitFor();
    violations.push(...(await seriousViolations(page)));
    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
  });
});
