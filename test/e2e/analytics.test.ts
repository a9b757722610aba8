import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import type { MessageEval, NewMessage, Store } from '../../src/store/store.js';
import { questionKey } from '../../src/text/question-key.js';
import type { AnalyticsBody, MemberBody } from '../support/bodies.js';
import { parleyTest } from '../support/parley-test.js';
import type { SignedInMember, TestParley, Workspace } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import { answerSourceRecord, createConversation, messageRecord } from '../support/store-contract.js';
import { launchBrowser, openContext, screenshots, seriousViolations } from './support/browser.js';
import { useSession } from './support/dashboard.js';
import { apiCall, settled } from './support/seed.js';
import { streamAnswer } from '../support/streamed-answer.js';

/**
 * The analytics page on a real server: empty, then over two weeks of conversations (today's asked through
 * the API, the days before written through the store, as no client can date a message in the past), its
 * filter in the URL, the knowledge gaps leading to the datastore to add a document to, and axe's check.
 */
let browser: Browser;
let parley: TestParley;
let workspace: Workspace;
let owner: SignedInMember;
let page: Page;
let problems: string[];
const violations: string[] = [];

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
  const opened = await openContext(browser, parley.url);
  problems = opened.problems;
  await useSession(opened.context, parley.url, owner.sessionSecret);
  page = await opened.context.newPage();
});

/** Screenshots in light and dark at 1280 and 375 px, and axe's serious findings in both schemes. */
async function capture(name: string): Promise<void> {
  await screenshots(page, name);
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    violations.push(...(await seriousViolations(page)).map((violation) => `${name} (${colorScheme}): ${violation}`));
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const daysAgo = (days: number, seconds = 0) => new Date(Date.now() - days * 86_400_000 + seconds * 1000).toISOString();

/** A past conversation as the API would have recorded it, written through the store with its times. */
async function pastConversation(
  store: Store,
  {
    agentId,
    channel,
    day,
    cited,
    rating,
    gap,
    replyAfter,
    status,
  }: {
    agentId: string;
    channel: string;
    day: number;
    cited: { id: string; name: string }[];
    rating?: MessageEval;
    gap?: string;
    replyAfter?: number;
    status?: 'RESOLVED' | 'HUMAN_REQUESTED';
  },
): Promise<void> {
  const conversation = await createConversation(store, workspace.id, { agentId, channel, createdAt: daysAgo(day) });
  const message = (fields: Partial<NewMessage> & Pick<NewMessage, 'from' | 'text' | 'createdAt'>): NewMessage =>
    messageRecord(workspace.id, conversation.id, { read: true, ...fields });
  const question = gap ?? 'How long do refunds take?';
  await store.conversations.appendMessage(message({ from: 'human', text: question, createdAt: daysAgo(day, 5) }), { titleIfUntitled: question });
  const answer = message({
    from: 'agent',
    text: gap === undefined ? 'Refunds take five working days. [1]' : 'I could not find this in the knowledge base.',
    sources: cited.map((datasource) => answerSourceRecord({ datasourceId: datasource.id, datasourceName: datasource.name, score: 0.8 })),
    createdAt: daysAgo(day, 6),
  });
  await store.conversations.appendMessage(
    answer,
    gap === undefined
      ? undefined
      : {
          gap: {
            id: newId(),
            workspaceId: workspace.id,
            agentId,
            conversationId: conversation.id,
            messageId: answer.id,
            question: gap,
            questionKey: questionKey(gap),
            reason: 'no_passage',
            bestScore: null,
            createdAt: answer.createdAt,
          },
        },
  );
  if (rating !== undefined) await store.messages.rate(workspace.id, answer.id, rating);
  if (replyAfter !== undefined) {
    const [member] = await store.members.list(workspace.id);
    await store.conversations.appendMessage(
      message({ from: 'human', text: 'A person here: let me check.', memberId: member!.id, createdAt: daysAgo(day, 5 + replyAfter) }),
    );
  }
  if (status !== undefined) await store.conversations.update(workspace.id, conversation.id, { status }, {}, daysAgo(day, 600));
}

parleyTest('empty: the page says there is nothing in the range yet', async () => {
  await page.goto('/dashboard/analytics');
  await page.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
  await page.getByRole('heading', { name: 'Nothing in this range' }).waitFor();
  expect(await page.getByRole('link', { name: 'Analytics' }).getAttribute('aria-current')).toBe('page');
  // The range the API took by default (the last 30 days) is shown in the form.
  expect(await page.getByLabel('To').inputValue()).toBe(new Date().toISOString().slice(0, 10));
  expect(await page.getByRole('button', { name: 'Last 30 days' }).getAttribute('aria-pressed')).toBe('true');
  await capture('analytics-empty');
});

parleyTest('full: figures, charts and knowledge gaps; the filter lives in the URL', async () => {
  const key = workspace.key;
  const datastore = await apiCall(parley, key, 'POST', '/datastores', { name: 'Help centre' });
  const hours = await apiCall(parley, key, 'POST', '/datasources', {
    type: 'text',
    datastoreId: datastore.id,
    name: 'Opening hours.txt',
    text: 'The shop opens at 9 am and closes at 6 pm, Monday to Saturday.',
  });
  const refunds = await apiCall(parley, key, 'POST', '/datasources', {
    type: 'text',
    datastoreId: datastore.id,
    name: 'Refunds and returns policy for online orders.txt',
    text: 'Refunds take five working days once the parcel is back with us.',
  });
  await settled(parley, key, datastore.id);
  const support = await apiCall(parley, key, 'POST', '/agents', { name: 'Support bot', tools: [{ type: 'datastore', datastoreId: datastore.id }] });
  const sales = await apiCall(parley, key, 'POST', '/agents', { name: 'Sales bot' });
  const [member] = await apiCall<MemberBody[]>(parley, key, 'GET', '/members');

  // Today, through the API: an answered question, a question asked twice that nothing answers, one to an agent without datastores.
  const open = await apiCall<{ conversationId: string; messageId: string }>(parley, key, 'POST', `/agents/${support.id}/query`, {
    query: 'When does the shop open?',
    channel: 'website',
  });
  await apiCall(parley, key, 'POST', `/messages/${open.messageId}/eval`, { eval: 'GOOD' });
  await apiCall(parley, key, 'PATCH', `/conversations/${open.conversationId}`, { status: 'RESOLVED' });
  const mars = await apiCall<{ conversationId: string }>(parley, key, 'POST', `/agents/${support.id}/query`, {
    query: 'Do you ship to Mars?',
    channel: 'website',
  });
  await apiCall(parley, key, 'POST', `/agents/${support.id}/query`, { query: 'do you ship to MARS', channel: 'mail' });
  await apiCall(parley, key, 'POST', `/conversations/${mars.conversationId}/messages`, { text: 'Not yet!', memberId: member!.id });
  await apiCall(parley, key, 'POST', `/agents/${sales.id}/query`, { query: 'Can I pay with bitcoin?', channel: 'api' });

  // The two weeks before, through the store.
  const cited = [
    { id: hours.id, name: 'Opening hours.txt' },
    { id: refunds.id, name: 'Refunds and returns policy for online orders.txt' },
  ];
  const channels = ['website', 'website', 'api', 'mail', 'website', 'form'];
  for (let day = 1; day <= 13; day += 1) {
    for (let n = 0; n < 1 + ((day * 7) % 4); n += 1) {
      await pastConversation(parley.core.store, {
        agentId: n % 3 === 2 ? sales.id : support.id,
        channel: channels[(day + n) % channels.length]!,
        day,
        cited: cited.slice((day + n) % 2, 2),
        rating: (day + n) % 5 === 0 ? 'BAD' : (day + n) % 2 === 0 ? 'GOOD' : undefined,
        gap: day % 4 === 0 && n === 0 ? 'Is there a student discount?' : undefined,
        replyAfter: (day + n) % 3 === 0 ? 60 + day * 45 : undefined,
        status: (day + n) % 3 === 1 ? 'RESOLVED' : (day + n) % 7 === 0 ? 'HUMAN_REQUESTED' : undefined,
      });
    }
  }
  const report = await apiCall<AnalyticsBody>(parley, key, 'GET', '/analytics');

  await page.goto('/dashboard/analytics');
  await page.getByRole('img', { name: /^Conversations per day, by channel/ }).waitFor();
  expect(
    await page
      .locator('.figure')
      .filter({ hasText: /^Conversations/ })
      .locator('.figure-value')
      .textContent(),
  ).toBe(report.conversations.total.toLocaleString('en'));
  await page.getByRole('img', { name: /^Answer ratings/ }).waitFor();
  await page.getByRole('img', { name: /^The datasources cited most: / }).waitFor();

  const gaps = page.getByRole('table', { name: 'Questions the agents could not answer' });
  const marsRow = gaps.getByRole('row').filter({ hasText: 'do you ship to MARS' });
  await marsRow.getByText('2 times').waitFor();
  await gaps.getByRole('row').filter({ hasText: 'Is there a student discount?' }).getByText('3 times').waitFor();
  await gaps.getByRole('row').filter({ hasText: 'Can I pay with bitcoin?' }).getByRole('link', { name: 'Give Sales bot a datastore' }).waitFor();
  await capture('analytics');

  // The figures by day, opened.
  await page.getByText('Figures by day').click();
  await page.getByRole('table', { name: 'Conversations per day and channel' }).waitFor();

  // The filter: an agent, shown with its button, kept in the URL and across a reload.
  await page.getByLabel('Agent').selectOption({ label: 'Sales bot' });
  await page.getByRole('button', { name: 'Show' }).click();
  await page.waitForURL((url) => url.searchParams.get('agentId') === sales.id);
  await gaps.getByRole('row').filter({ hasText: 'Can I pay with bitcoin?' }).waitFor();
  await expect.poll(() => gaps.getByRole('row').filter({ hasText: 'do you ship to MARS' }).count()).toBe(0);
  await page.reload();
  await page.getByRole('img', { name: /^Conversations per day/ }).waitFor();
  expect(await page.getByLabel('Agent').inputValue()).toBe(sales.id);
  expect(await page.getByText(/Figures between .* for Sales bot/).count()).toBe(1);

  // A preset range: both days in the URL, the button pressed.
  await page.getByRole('button', { name: 'Last 7 days' }).click();
  await page.waitForURL((url) => url.searchParams.get('from') !== null && url.searchParams.get('to') !== null);
  const url = new URL(page.url());
  expect(Date.parse(url.searchParams.get('to')!) - Date.parse(url.searchParams.get('from')!)).toBe(6 * 86_400_000);
  expect(url.searchParams.get('agentId')).toBe(sales.id);
  await expect.poll(() => page.getByRole('button', { name: 'Last 7 days' }).getAttribute('aria-pressed')).toBe('true');
  await capture('analytics-filtered');

  // A knowledge gap leads to the datastore's text form, the question filled in, ready for the answer.
  await page.goto(`/dashboard/analytics?agentId=${support.id}`);
  await marsRow.getByRole('link', { name: 'Write the answer in Help centre' }).click();
  const form = page.getByRole('dialog', { name: 'Answer a question' });
  await form.waitFor();
  expect(new URL(page.url()).pathname).toBe(`/dashboard/datastores/${datastore.id}`);
  expect(await form.getByLabel('Name').inputValue()).toBe('do you ship to MARS');
  expect(await form.getByLabel('Text').inputValue()).toBe('do you ship to MARS\n\n');
  await page.keyboard.type('Not yet: only to Earth addresses.');
  await capture('analytics-gap-answer');
  await form.getByRole('button', { name: 'Add text' }).click();
  await form.waitFor({ state: 'detached' });
  await page.getByRole('cell', { name: /^do you ship to MARS/ }).waitFor();
  // The form is done with: a reload does not open it again.
  expect(new URL(page.url()).searchParams.get('answer')).toBeNull();

  // The team's playground questions count only when asked for; the channel filter offers the channels in use.
  await page.goto('/dashboard/analytics');
  await page.getByRole('img', { name: /^Conversations per day/ }).waitFor();
  const options = await page.getByLabel('Channel').locator('option').all();
  const offered = await Promise.all(options.map((option) => option.getAttribute('value')));
  expect(offered).toEqual(['', ...report.availableChannels]);
  expect(report.availableChannels).not.toContain('dashboard');
  const asked = await streamAnswer(`${parley.url}/agents/${support.id}/query`, owner.accessToken, { query: 'Testing the bot', channel: 'dashboard' });
  expect(asked.status).toBe(200);
  await page.reload();
  await page.getByRole('img', { name: /^Conversations per day/ }).waitFor();
  const total = () =>
    page
      .locator('.figure')
      .filter({ hasText: /^Conversations/ })
      .locator('.figure-value')
      .textContent();
  expect(await total()).toBe(report.conversations.total.toLocaleString('en'));
  await page.getByRole('checkbox', { name: /Include playground/ }).check();
  await page.waitForURL((url) => url.searchParams.get('includePlayground') === 'true');
  await expect.poll(total).toBe((report.conversations.total + 1).toLocaleString('en'));
  await expect.poll(() => page.getByLabel('Channel').locator('option[value="dashboard"]').count()).toBe(1);
  await capture('analytics-with-playground');

  // A range the API refuses says why.
  await page.goto('/dashboard/analytics?from=2030-01-08&to=2030-01-07');
  await page.getByRole('alert').getByText('The range starts (from 2030-01-08) after it ends (to 2030-01-07)').waitFor();
  expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
  await capture('analytics-refused');

  expect(violations).toEqual([]);
  expect(problems).toEqual([]);
});
