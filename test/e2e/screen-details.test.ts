import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { parleyTest } from '../support/parley-test.js';
import type { SignedInMember, TestParley, Workspace } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import { until } from '../support/until.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import type { DeliveryBody } from '../support/bodies.js';
import { DESKTOP, PHONE, launchBrowser, openContext, screenshots } from './support/browser.js';
import { useSession } from './support/dashboard.js';
import { apiCall } from './support/seed.js';

/**
 * Small things seen on screen: the playground's page keeps its height however long the chat,
 * dialogs open without a Content-Security-Policy error, a failing webhook says it fails, relative times
 * move on. One store is enough: each is about the page, not the store.
 */
let browser: Browser;
let receiver: WebhookReceiver;
let parley: TestParley;
let workspace: Workspace;
let owner: SignedInMember;

beforeAll(async () => {
  browser = await launchBrowser();
  receiver = await WebhookReceiver.start();
});
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
});

parleyTest.beforeAll(async ({ startParley }) => {
  // One attempt per delivery: a failing endpoint fails at once instead of after hours of retries.
  parley = await startParley(STORE_KINDS[0]!, { workers: true, env: { PARLEY_DELIVERY_MAX_ATTEMPTS: '1' } });
  workspace = await parley.newWorkspace('Acme support');
  owner = await parley.newMember(workspace.id, 'owner');
});

async function signedInPage(): Promise<{ page: Page; problems: string[] }> {
  const { context, problems } = await openContext(browser, parley.url);
  await useSession(context, parley.url, owner.sessionSecret);
  return { page: await context.newPage(), problems };
}

/** The page's whole scrollable height, as the window's scroll bar measures it. */
const scrollHeight = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollHeight: number } } }).document.documentElement.scrollHeight);

/** The body's computed `overflow`: `hidden` while a dialog locks the page's scrolling. */
const bodyOverflow = (page: Page) =>
  page.evaluate(() => {
    const scope = globalThis as unknown as { document: { body: unknown }; getComputedStyle(element: unknown): { overflow: string } };
    return scope.getComputedStyle(scope.document.body).overflow;
  });

describe('the dashboard, in detail', () => {
  parleyTest('the playground scrolls its chat inside its own box: ten questions leave the page as tall as before', async () => {
    const agent = await apiCall(parley, workspace.key, 'POST', '/agents', { name: 'Support bot' });
    const { page, problems } = await signedInPage();
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await page.goto(`/dashboard/agents/${agent.id}?tab=playground`);
      const log = page.getByRole('log', { name: 'Conversation' });
      await log.waitFor();
      const before = await scrollHeight(page);
      for (let question = 1; question <= 10; question++) {
        await page.getByLabel('Your question').fill(`Question number ${question}: what are your opening hours?`);
        await page.getByRole('button', { name: 'Send' }).click();
        await page.getByRole('button', { name: 'Send' }).waitFor();
        await expect.poll(() => log.locator('.answer-text').count()).toBe(question);
      }
      expect(Math.abs((await scrollHeight(page)) - before), `page height at ${viewport.width} px`).toBeLessThanOrEqual(4);
      await screenshots(page, 'playground-ten-questions', { viewports: [viewport] });
    }
    expect(problems).toEqual([]);
  });

  parleyTest('dialogs open without a Content-Security-Policy error', async () => {
    const datastore = await apiCall(parley, workspace.key, 'POST', '/datastores', { name: 'Handbook' });
    const { page } = await signedInPage();
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    const dialogs: [string, string, string][] = [
      [`/dashboard/datastores/${datastore.id}`, 'Add text', 'Add text'],
      [`/dashboard/datastores/${datastore.id}`, 'Add web page', 'Add a web page'],
      [`/dashboard/datastores/${datastore.id}`, 'Delete datastore', 'Delete the datastore “Handbook”?'],
      ['/dashboard/datastores', 'New datastore', 'New datastore'],
      ['/dashboard/settings/keys', 'New key', 'New API key'],
      ['/dashboard/settings/members', 'Invite member', 'Invite a member'],
      ['/dashboard/settings/webhooks', 'New endpoint', 'New webhook endpoint'],
    ];
    for (const [path, button, title] of dialogs) {
      await page.goto(path);
      await page.getByRole('button', { name: button, exact: true }).first().click();
      await page
        .getByRole('dialog', { name: title })
        .or(page.getByRole('alertdialog', { name: title }))
        .waitFor();
      // The page behind stays locked: the scroll lock's styles apply without being inline.
      expect(await bodyOverflow(page)).toBe('hidden');
      await page.keyboard.press('Escape');
      await expect.poll(() => bodyOverflow(page)).not.toBe('hidden');
    }
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Open the menu' }).click();
    await page.getByRole('dialog', { name: 'Parley' }).waitFor();
    expect(refused).toEqual([]);
  });

  parleyTest('relative times move on with the clock, without a reload', async () => {
    await apiCall(parley, workspace.key, 'POST', '/agents', { name: 'Clock bot' });
    const { page, problems } = await signedInPage();
    await page.clock.install();
    await page.goto('/dashboard/agents');
    const changed = page.getByRole('listitem').filter({ hasText: 'Clock bot' }).locator('time');
    await expect.poll(() => changed.textContent()).toBe('just now');
    await page.clock.fastForward('05:00');
    await expect.poll(() => changed.textContent()).toBe('5 minutes ago');
    expect(problems).toEqual([]);
  });

  parleyTest('a webhook whose deliveries fail says it is failing, not receiving events', async () => {
    const webhook = await apiCall(parley, workspace.key, 'POST', '/webhooks', { url: receiver.url, events: ['message.created'] });
    receiver.replies.push(...Array.from({ length: 3 }, () => ({ status: 500, body: 'Internal error at the receiver' })));
    const conversations = parley.core.services.conversations;
    const { conversation } = await conversations.intake.start(workspace.id, { agentId: null, channel: 'api' });
    for (const text of ['one', 'two', 'three']) await conversations.messages.add(workspace.id, conversation.id, { from: 'human', text });
    const deliveries = await until(
      () => apiCall<DeliveryBody[]>(parley, workspace.key, 'GET', `/webhooks/${webhook.id}/deliveries`),
      (list) => list.length === 3 && list.every((delivery) => delivery.status === 'failed'),
    );
    expect(deliveries.map((delivery) => delivery.lastStatusCode)).toEqual([500, 500, 500]);

    const { page, problems } = await signedInPage();
    await page.goto(`/dashboard/settings/webhooks/${webhook.id}`);
    await page.getByText(/^Failing: the last 3 deliveries failed, the latest just now/).waitFor();
    expect(await page.getByText('Receiving events').count()).toBe(0);
    await screenshots(page, 'webhook-failing');
    // The list tells it too, beside an endpoint that is fine.
    await apiCall(parley, workspace.key, 'POST', '/webhooks', {
      url: `${receiver.url}/crm`,
      events: ['datasource.synched'],
      description: 'CRM sync',
    });
    await page.goto('/dashboard/settings/webhooks');
    const card = (url: string) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: url, exact: true }) });
    await card(receiver.url).getByText('Failing: the last 3 deliveries failed').waitFor();
    await card(`${receiver.url}/crm`).waitFor();
    expect(await card(`${receiver.url}/crm`).getByText('Failing').count()).toBe(0);
    await screenshots(page, 'webhooks-list-failing');

    // One success after the failures: receiving again.
    await conversations.messages.add(workspace.id, conversation.id, { from: 'human', text: 'four' });
    await until(
      () => apiCall<DeliveryBody[]>(parley, workspace.key, 'GET', `/webhooks/${webhook.id}/deliveries`),
      (list) => list[0]?.status === 'succeeded',
    );
    await page.goto(`/dashboard/settings/webhooks/${webhook.id}`);
    await page.getByText('Receiving events.').waitFor();
    await page.goto('/dashboard/settings/webhooks');
    await card(`${receiver.url}/crm`).waitFor();
    expect(await card(receiver.url).getByText('Failing').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  parleyTest('a Zapier subscription shows among the webhooks, labelled, and can be removed', async () => {
    const hook = await apiCall(parley, workspace.key, 'POST', '/hooks', { target_url: `${receiver.url}/zap`, event: 'new_message' });
    const { page, problems } = await signedInPage();
    await page.goto('/dashboard/settings/webhooks');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: `${receiver.url}/zap`, exact: true }) });
    await card.getByText('Zapier / automation').waitFor();
    await card.getByText('message.created').waitFor();
    await screenshots(page, 'webhooks-automation-subscription');
    await card.getByRole('button', { name: `Delete the endpoint ${receiver.url}/zap` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete endpoint' }).click();
    await card.waitFor({ state: 'detached' });
    // The card goes at once; the server's answer may come a moment later.
    await until(
      () => apiCall<{ id: string }[]>(parley, workspace.key, 'GET', '/webhooks'),
      (webhooks) => !webhooks.some((webhook) => webhook.id === hook.id),
    );
    expect(problems).toEqual([]);
  });

  parleyTest('a web page on a private address: the dialog says which setting refuses it', async () => {
    const datastore = await apiCall(parley, workspace.key, 'POST', '/datastores', { name: 'Intranet' });
    const { page, problems } = await signedInPage();
    await page.goto(`/dashboard/datastores/${datastore.id}`);
    await page.getByRole('button', { name: 'Add web page' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a web page' });
    await dialog.getByLabel('Address (URL)').fill('http://10.0.0.5/handbook');
    await dialog.getByRole('button', { name: 'Add web page' }).click();
    await dialog.getByText('10.0.0.5 is a private address, which PARLEY_OUTBOUND_ALLOW=loopback does not allow').waitFor();
    expect(problems).toEqual([]);
  });
});
