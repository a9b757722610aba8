import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { AnswerBody, DatasourceBody } from '../support/bodies.js';
import { parleyTest } from '../support/parley-test.js';
import type { SignedInMember, TestParley, Workspace } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import { launchBrowser, openContext, screenshots, seriousViolations } from './support/browser.js';
import { useSession } from './support/dashboard.js';
import { apiCall, settled } from './support/seed.js';

/**
 * Corrections in Chromium: a wrong answer improved from the inbox and the same question then answered with
 * the correction; a knowledge gap answered from the analytics page ("Answer this") and then answered so.
 */
let browser: Browser;
let parley: TestParley;
let workspace: Workspace;
let owner: SignedInMember;
let agentId: string;
let datastoreId: string;
let page: Page;
let problems: string[];
const violations: string[] = [];

const RETURNS = 'How many days do I have to return an item?';
const CORRECTED = 'You have 60 days to return an item, unworn and with its label. Since 1 November.';
const GIFT_CARDS = 'Do you sell gift cards?';
const GIFT_ANSWER = 'Yes: gift cards of 20, 50 and 100 euros, sold in our shops only.';

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

parleyTest.beforeAll(async ({ startParley }) => {
  parley = await startParley(STORE_KINDS[0]!, { workers: true });
  workspace = await parley.newWorkspace('Outdoor shop');
  owner = await parley.newMember(workspace.id, 'owner');
  datastoreId = (await apiCall(parley, workspace.key, 'POST', '/datastores', { name: 'Help centre' })).id;
  await apiCall(parley, workspace.key, 'POST', '/datasources', {
    type: 'text',
    datastoreId,
    name: 'Returns.txt',
    text: 'Returns: you may return an unworn item within 14 days of delivery. Refunds reach your card within a week.',
  });
  await settled(parley, workspace.key, datastoreId);
  agentId = (await apiCall(parley, workspace.key, 'POST', '/agents', { name: 'Shop bot', tools: [{ type: 'datastore', datastoreId }] })).id;
  const opened = await openContext(browser, parley.url);
  problems = opened.problems;
  await useSession(opened.context, parley.url, owner.sessionSecret);
  page = await opened.context.newPage();
});

const ask = (query: string) => apiCall<AnswerBody>(parley, workspace.key, 'POST', `/agents/${agentId}/query`, { query });

/** Screenshots in light and dark at 1280 and 375 px, and axe's serious findings in both schemes. */
async function capture(name: string, fullPage = false): Promise<void> {
  await screenshots(page, name, { fullPage });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    violations.push(...(await seriousViolations(page)).map((violation) => `${name} (${colorScheme}): ${violation}`));
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

parleyTest('a wrong answer improved from the inbox is what the agent says to the same question next', async () => {
  const wrong = await ask(RETURNS);
  expect(wrong.answer).toContain('14 days');

  await page.goto(`/dashboard/conversations/${wrong.conversationId}`);
  await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
  const answer = page.getByRole('log', { name: 'Messages' }).getByRole('listitem').filter({ hasText: '14 days' });
  await answer.getByRole('button', { name: 'Improve' }).waitFor();
  await capture('qa-thread');
  await answer.getByRole('button', { name: 'Improve' }).click();
  const form = page.getByRole('dialog', { name: 'Improve this answer' });
  await form.waitFor();
  expect(await form.getByLabel('Question').inputValue()).toBe(RETURNS);
  expect(await form.getByLabel('Answer').inputValue()).toBe(wrong.answer);
  await form.getByLabel('Answer').fill(CORRECTED);
  await capture('qa-improve');
  await form.getByRole('button', { name: 'Save answer' }).click();
  await form.waitFor({ state: 'detached' });

  const entries = (await settled(parley, workspace.key, datastoreId)).filter((datasource) => datasource.type === 'qa');
  expect(entries).toMatchObject([
    { name: RETURNS, status: 'synched', config: { question: RETURNS, answer: CORRECTED, sourceMessageId: wrong.messageId } },
  ]);
  const right = await ask(RETURNS);
  expect(right.answer).toBe(CORRECTED);
  expect(right.sources?.map((source) => source.datasource_id)).toEqual([entries[0]!.id]);

  // The datastore lists the entry as Q&A, with an Edit button.
  await page.goto(`/dashboard/datastores/${datastoreId}`);
  await page.getByRole('button', { name: `Edit ${RETURNS}` }).waitFor();
  await capture('qa-datastore');

  // Edited there, the entry is indexed again and its new answer is said from then on.
  await page.getByRole('button', { name: `Edit ${RETURNS}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Q&A entry' });
  expect(await edit.getByLabel('Answer').inputValue()).toBe(CORRECTED);
  await edit.getByLabel('Answer').fill('You have 90 days to return an item.');
  await edit.getByRole('button', { name: 'Save answer' }).click();
  await edit.waitFor({ state: 'detached' });
  await settled(parley, workspace.key, datastoreId);
  expect((await ask(RETURNS)).answer).toBe('You have 90 days to return an item.');
});

parleyTest('a knowledge gap answered from the analytics page is answered so from then on', async () => {
  const gap = await ask(GIFT_CARDS);
  expect(gap.answer).not.toBe(GIFT_ANSWER);

  await page.goto(`/dashboard/analytics?agentId=${agentId}`);
  const row = page.getByRole('table', { name: 'Questions the agents could not answer' }).getByRole('row').filter({ hasText: GIFT_CARDS });
  await row.getByRole('button', { name: 'Answer this' }).waitFor();
  await capture('qa-gaps', true);
  await row.getByRole('button', { name: 'Answer this' }).click();
  const form = page.getByRole('dialog', { name: 'Answer this question' });
  await form.waitFor();
  expect(await form.getByLabel('Question').inputValue()).toBe(GIFT_CARDS);
  await form.getByLabel('Answer').fill(GIFT_ANSWER);
  await form.getByLabel('Other wordings').fill('Can I buy a gift card?');
  await capture('qa-answer-this');
  await form.getByRole('button', { name: 'Save answer' }).click();
  await form.waitFor({ state: 'detached' });

  const entry = (await settled(parley, workspace.key, datastoreId)).find((datasource: DatasourceBody) => datasource.name === GIFT_CARDS);
  expect(entry).toMatchObject({ type: 'qa', status: 'synched', config: { answer: GIFT_ANSWER, questions: ['Can I buy a gift card?'] } });
  for (const query of [GIFT_CARDS, 'Can I buy a gift card?']) expect((await ask(query)).answer, query).toBe(GIFT_ANSWER);
  expect(problems).toEqual([]);
  expect(violations).toEqual([]);
});
