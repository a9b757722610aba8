import { createServer } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { ChannelConnectionBody } from '../../src/contract/channel-connections.js';
import { FAKE_SLACK_BOT_TOKEN, FAKE_SLACK_SIGNING_SECRET, FakeSlackApi } from '../support/fake-slack-api.js';
import { FAKE_CRISP_IDENTIFIER, FAKE_CRISP_KEY, FAKE_CRISP_WEBSITE_ID, FakeCrispApi, visitorMessageHook } from '../support/fake-crisp-api.js';
import { FAKE_ACCESS_TOKEN, FAKE_APP_SECRET, FAKE_PHONE_NUMBER_ID, FakeGraphApi, customerText } from '../support/fake-graph-api.js';
import { FAKE_BOT_TOKEN, FakeTelegramBotApi } from '../support/fake-telegram-bot-api.js';
import { parleyTest } from '../support/parley-test.js';
import type { SignedInMember, TestParley, Workspace } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import { until } from '../support/until.js';
import { launchBrowser, openContext, screenshots, seriousViolations } from './support/browser.js';
import { signIn, useSession } from './support/dashboard.js';
import { apiCall } from './support/seed.js';

/**
 * The agent's Channels tab in Chromium: an owner connects a Telegram bot (polling a loopback Bot API) and
 * tests it; a message to the bot becomes a conversation the inbox labels Telegram, whose answer says it was
 * sent; an e-mail address forwarded to Parley's SMTP listener shows what to paste at the mail provider; a
 * Slack app shows its Request URL and what to subscribe to, and a mention sent there is answered in its thread;
 * a member sees none of the actions.
 */
let browser: Browser;
let telegram: FakeTelegramBotApi;
let crisp: FakeCrispApi;
let graph: FakeGraphApi;
let parley: TestParley;
let workspace: Workspace;
let owner: SignedInMember;
let member: SignedInMember;
let agentId: string;
let page: Page;
let problems: string[];
let mailPort: number;

/** A port nobody listens on now, for Parley's SMTP listener (port 0 would not say which one it took). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

beforeAll(async () => {
  browser = await launchBrowser();
  telegram = new FakeTelegramBotApi();
  await telegram.start();
  crisp = new FakeCrispApi();
  await crisp.start();
  graph = new FakeGraphApi();
  await graph.start();
});
afterAll(async () => {
  await browser?.close();
  await telegram?.close();
  await crisp?.close();
  await graph?.close();
});

parleyTest.beforeAll(async ({ startParley }) => {
  mailPort = await freePort();
  parley = await startParley(STORE_KINDS[0]!, {
    workers: true,
    env: { PARLEY_MAIL_INBOUND_PORT: String(mailPort), PARLEY_MAIL_INBOUND_HOST: '127.0.0.1' },
  });
  workspace = await parley.newWorkspace('Acme support');
  owner = await parley.newMember(workspace.id, 'owner');
  member = await parley.newMember(workspace.id, 'member');
  agentId = (await apiCall(parley, workspace.key, 'POST', '/agents', { name: 'Shop bot' })).id;
  const opened = await openContext(browser, parley.url);
  problems = opened.problems;
  page = await opened.context.newPage();
});

const tabUrl = () => `${parley.url}/dashboard/agents/${agentId}?tab=channels`;

async function noSeriousViolations(): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await seriousViolations(page), colorScheme).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

parleyTest('an owner connects Telegram and e-mail from the tab; the inbox shows the channel and whether the answer went out', async () => {
  await page.goto(`${parley.url}/dashboard/sign-in`);
  await signIn(page, owner.email, owner.password);
  await page.goto(tabUrl());
  const channels = page.getByRole('list', { name: 'Channels' });
  await channels.waitFor();
  await expect(page.getByRole('tab', { name: 'Channels', selected: true }).count()).resolves.toBe(1);
  await screenshots(page, 'channels-tab-empty');
  await noSeriousViolations();

  // Telegram, polling the loopback Bot API (the advanced field).
  await page.getByRole('button', { name: 'Connect Telegram' }).click();
  const telegramDialog = page.getByRole('dialog', { name: 'Connect Telegram' });
  await telegramDialog.getByLabel('Bot token').fill(FAKE_BOT_TOKEN);
  await telegramDialog.getByLabel('Polling').check();
  await expect.poll(() => telegramDialog.innerText()).toContain('no public address needed');
  await telegramDialog.getByText('Advanced').click();
  await telegramDialog.getByLabel('Bot API server').fill(telegram.url);
  await telegramDialog.getByRole('button', { name: 'Connect Telegram' }).click();
  await telegramDialog.waitFor({ state: 'detached' });
  const telegramCard = channels.getByRole('listitem', { name: 'Telegram' });
  await expect.poll(() => telegramCard.innerText()).toMatch(/Active[\s\S]*123…ghij[\s\S]*no public URL is needed/);

  await page.getByRole('button', { name: 'Test Telegram' }).click();
  await expect.poll(() => telegramCard.getByRole('status').innerText()).toBe('Connected to @parley_test_bot');
  await expect.poll(() => telegramCard.innerText()).toContain('@parley_test_bot');

  // Editing keeps the token unless another is typed.
  await page.getByRole('button', { name: 'Edit Telegram' }).click();
  const editDialog = page.getByRole('dialog', { name: 'Edit Telegram' });
  await expect.poll(() => editDialog.innerText()).toContain('Stored encrypted (123…ghij); leave empty to keep it.');
  expect(await editDialog.getByLabel('Polling').isChecked()).toBe(true);
  await editDialog.getByRole('button', { name: 'Save' }).click();
  await editDialog.waitFor({ state: 'detached' });

  // The API's refusal shows beside the field it names.
  await page.getByRole('button', { name: 'Connect E-mail' }).click();
  const mailDialog = page.getByRole('dialog', { name: 'Connect E-mail' });
  await mailDialog.getByLabel('Address', { exact: true }).fill('not an address');
  await mailDialog.getByRole('button', { name: 'Connect e-mail' }).click();
  await expect.poll(() => mailDialog.locator('.field-invalid label').allInnerTexts()).toEqual(['Address']);
  expect(await mailDialog.locator('.field-invalid .field-error').innerText()).not.toBe('');
  await mailDialog.getByLabel('IMAP mailbox').check();
  await mailDialog.getByLabel('Send replies through your own SMTP server').check();
  await screenshots(page, 'channels-mail-form');
  await mailDialog.getByLabel('Forwarded to Parley').check();
  await mailDialog.getByLabel('Send replies through your own SMTP server').uncheck();
  await mailDialog.getByLabel('Address', { exact: true }).fill('help@shop.example');
  await expect(mailDialog.getByLabel('Let the agent answer e-mail by itself').isChecked()).resolves.toBe(false);
  await mailDialog.getByRole('button', { name: 'Connect e-mail' }).click();
  await mailDialog.waitFor({ state: 'detached' });
  const mailCard = channels.getByRole('listitem', { name: 'E-mail' });
  await expect.poll(() => mailCard.innerText()).toContain(`127.0.0.1:${mailPort}`);
  expect(await mailCard.innerText()).toContain('help@shop.example');
  expect(await mailCard.getByRole('button', { name: 'Copy SMTP address' }).count()).toBe(1);

  // A message to the bot: a conversation labelled Telegram, the agent's answer sent back to the chat.
  telegram.pushUpdate({
    message: {
      message_id: 1,
      date: Math.floor(Date.now() / 1000),
      chat: { id: 4242, type: 'private', first_name: 'Ada', username: 'ada' },
      from: { id: 4242, is_bot: false, first_name: 'Ada', username: 'ada', language_code: 'en' },
      text: 'When does the shop open?',
    },
  });
  await until(
    () => telegram.sent.filter((sent) => sent.chatId === '4242'),
    (sent) => sent.length > 0,
    60_000,
  );
  await page.goto(`${parley.url}/dashboard/inbox`);
  // The list shows the latest words, the agent's answer: the conversation is the one labelled Telegram.
  const conversation = page.getByRole('list', { name: 'Conversations' }).getByRole('link');
  await expect.poll(() => conversation.locator('.channel-tag').allInnerTexts(), { timeout: 30_000 }).toEqual(['Telegram']);
  await conversation.click();
  const log = page.getByRole('log', { name: 'Messages' });
  await expect.poll(() => log.innerText()).toContain('When does the shop open?');
  await expect.poll(() => log.locator('.delivery-state').allInnerTexts(), { timeout: 30_000 }).toEqual(['Sent']);

  // A reply Telegram refuses (the person blocked the bot: the chat is gone) says why it did not go out, as does
  // the notice that a person took over.
  telegram.chats.delete('4242');
  await page.getByRole('textbox', { name: 'Reply to the visitor' }).fill('Are you still there?');
  await page.getByRole('button', { name: 'Send reply' }).click();
  await expect
    .poll(() => log.locator('.delivery-state').allInnerTexts(), { timeout: 30_000 })
    .toEqual(['Sent', expect.stringMatching(/^Not sent: .*chat/i), expect.stringMatching(/^Not sent: .*chat/i)]);
  const reply = log.getByRole('listitem').filter({ hasText: 'Are you still there?' });
  expect(await reply.locator('.delivery-state').innerText()).toMatch(/^Not sent: Telegram does not know the chat/);
  // The phone's reply box sticks to the bottom of the window: a full-page picture would draw it over the thread.
  await screenshots(page, 'channels-thread-delivery', { fullPage: false });
  await noSeriousViolations();

  // Back on the tab: both connected, the last message in and out shown.
  await page.goto(tabUrl());
  await expect.poll(() => telegramCard.innerText()).toMatch(/Failing[\s\S]*Last message in\s*just now[\s\S]*Failing: .*chat/i);
  await screenshots(page, 'channels-tab-connected');
  await noSeriousViolations();

  // Switched off and on, then disconnected after a confirmation.
  await page.getByRole('button', { name: 'Disable E-mail' }).click();
  await expect.poll(() => mailCard.locator('.badge').innerText()).toBe('Disabled');
  await page.getByRole('button', { name: 'Enable E-mail' }).click();
  await expect.poll(() => mailCard.locator('.badge').innerText()).toBe('Active');
  await page.getByRole('button', { name: 'Disconnect E-mail' }).click();
  await page.getByRole('alertdialog', { name: 'Disconnect E-mail?' }).getByRole('button', { name: 'Disconnect' }).click();
  await page.getByRole('button', { name: 'Connect E-mail' }).waitFor();

  const listed = await apiCall<ChannelConnectionBody[]>(parley, workspace.key, 'GET', `/agents/${agentId}/channels`);
  expect(listed.map((connection) => [connection.channel, connection.status])).toEqual([['messenger_b', 'failing']]);
  expect(problems).toEqual([]);
});

parleyTest('a member sees the tab without its actions', async () => {
  const opened = await openContext(browser, parley.url);
  await useSession(opened.context, parley.url, member.sessionSecret);
  const memberPage = await opened.context.newPage();
  await memberPage.goto(tabUrl());
  await memberPage.getByRole('note').filter({ hasText: 'Only owners and admins' }).waitFor();
  for (const name of [/^Connect/, /^Disconnect/, /^Test /, /^Edit /]) {
    expect(await memberPage.getByRole('button', { name }).count(), String(name)).toBe(0);
  }
  await opened.context.close();
  expect(opened.problems).toEqual([]);
});

parleyTest(
  'an owner connects Slack: the Request URL to paste, the events and scopes; a mention sent there is answered and labelled Slack',
  async () => {
    const slack = new FakeSlackApi();
    await slack.start();
    try {
      await useSession(page.context(), parley.url, owner.sessionSecret);
      await page.goto(tabUrl());
      const channels = page.getByRole('list', { name: 'Channels' });
      await page.getByRole('button', { name: 'Connect Slack' }).click();
      const dialog = page.getByRole('dialog', { name: 'Connect Slack' });
      await dialog.getByLabel('Bot token').fill(FAKE_SLACK_BOT_TOKEN);
      await dialog.getByLabel('Signing secret').fill(FAKE_SLACK_SIGNING_SECRET);
      await dialog.getByText('Advanced').click();
      await dialog.getByLabel('Web API').fill(slack.url);
      await screenshots(page, 'channels-slack-form');
      await dialog.getByRole('button', { name: 'Connect Slack' }).click();
      await dialog.waitFor({ state: 'detached' });

      const card = channels.getByRole('listitem', { name: 'Slack' });
      await expect
        .poll(() => card.innerText())
        .toMatch(/Active[\s\S]*xox…Only[\s\S]*0f1…e1f0[\s\S]*Event Subscriptions[\s\S]*app_mention[\s\S]*chat:write/);
      await page.getByRole('button', { name: 'Test Slack' }).click();
      await expect.poll(() => card.locator('.provider-test').innerText()).toBe('Connected to Parley Test Workspace as @parley');
      await expect.poll(() => card.innerText()).toContain('@parley');
      expect(await card.getByRole('button', { name: 'Copy Request URL' }).count()).toBe(1);
      await screenshots(page, 'channels-slack-connected');
      await noSeriousViolations();

      // What the card says to paste is where Slack's signed mention is answered, in the thread of the question.
      const requestUrl = await card.locator('.paste-box code.mono').innerText();
      const ts = slack.nextTs();
      const event = { type: 'app_mention', user: 'U0ADA00001', text: `<@${slack.bot.userId}> When does the shop open?`, ts, channel: 'C0SHOP0001' };
      expect((await slack.deliver(requestUrl, slack.eventCallback(event))).status).toBe(200);
      await until(
        () => slack.posted.filter((posted) => posted.threadTs === ts),
        (posted) => posted.length > 0,
        60_000,
      );
      await page.goto(`${parley.url}/dashboard/inbox`);
      const conversations = page.getByRole('list', { name: 'Conversations' });
      await expect.poll(() => conversations.locator('.channel-tag').allInnerTexts(), { timeout: 30_000 }).toContain('Slack');
      expect(problems).toEqual([]);
    } finally {
      await slack.close();
    }
  },
);

parleyTest('an owner connects Crisp: the hook URL to paste and its event; a visitor’s message is answered in Crisp and labelled Crisp', async () => {
  await page.goto(tabUrl());
  const channels = page.getByRole('list', { name: 'Channels' });
  await page.getByRole('button', { name: 'Connect Crisp' }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect Crisp' });
  await dialog.getByLabel('Website ID').fill(FAKE_CRISP_WEBSITE_ID);
  await dialog.getByLabel('Token identifier').fill(FAKE_CRISP_IDENTIFIER);
  await dialog.getByLabel('Token key').fill(FAKE_CRISP_KEY);
  await dialog.getByLabel('Hooks signing secret (optional)').fill('plugin-signing-secret');
  await dialog.getByText('Advanced').click();
  await dialog.getByLabel('REST API').fill(crisp.url);
  await screenshots(page, 'channels-crisp-form');
  await dialog.getByRole('button', { name: 'Connect Crisp' }).click();
  await dialog.waitFor({ state: 'detached' });
  const card = channels.getByRole('listitem', { name: 'Crisp' });
  await expect.poll(() => card.innerText()).toMatch(/Active[\s\S]*Plugin Hooks, signed by Crisp[\s\S]*message:send/);
  expect(await card.innerText()).not.toContain(FAKE_CRISP_KEY);
  expect(await card.getByRole('button', { name: 'Copy hook URL' }).count()).toBe(1);
  await page.getByRole('button', { name: 'Test Crisp' }).click();
  await expect.poll(() => card.locator('.provider-test').innerText()).toBe('Connected to the Crisp website Shop Support');
  await screenshots(page, 'channels-crisp-connected');
  await noSeriousViolations();

  // What Crisp delivers to the URL shown: answered in the Crisp conversation, labelled Crisp in the inbox.
  const hookUrl = await card.locator('.copy-value code').innerText();
  const session = 'session_6a1f0c52-0c9e-4a8e-9d2b-4b1c1d0e2f30';
  expect(await crisp.deliverHook(hookUrl, visitorMessageHook(session, 'Do you ship abroad?'), { signingSecret: 'plugin-signing-secret' })).toBe(200);
  await until(
    () => crisp.textsTo(session),
    (texts) => texts.length > 0,
    60_000,
  );
  await page.goto(`${parley.url}/dashboard/inbox`);
  const listed = page
    .getByRole('list', { name: 'Conversations' })
    .getByRole('link')
    .filter({ hasText: /ship|visitor/i });
  await expect.poll(() => listed.locator('.channel-tag').allInnerTexts(), { timeout: 30_000 }).toContain('Crisp');
  expect(problems).toEqual([]);
});

parleyTest('an owner connects WhatsApp: the tab shows the callback URL and verify token Meta needs, and a message is answered', async () => {
  await useSession(page.context(), parley.url, owner.sessionSecret);
  await page.goto(tabUrl());
  const channels = page.getByRole('list', { name: 'Channels' });
  await page.getByRole('button', { name: 'Connect WhatsApp' }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect WhatsApp' });
  await dialog.getByLabel('Phone number ID').fill(FAKE_PHONE_NUMBER_ID);
  await dialog.getByLabel('Access token').fill(FAKE_ACCESS_TOKEN);
  await dialog.getByLabel('App secret').fill(FAKE_APP_SECRET);
  await dialog.getByText('Advanced').click();
  await dialog.getByLabel('Graph API').fill(graph.url);
  await screenshots(page, 'channels-whatsapp-form');
  await noSeriousViolations();
  await dialog.getByRole('button', { name: 'Connect WhatsApp' }).click();
  await dialog.waitFor({ state: 'detached' });

  const card = channels.getByRole('listitem', { name: 'WhatsApp' });
  await expect.poll(() => card.innerText()).toMatch(/Active[\s\S]*EAA…efZZ[\s\S]*no template/);
  const [connection] = (await apiCall<ChannelConnectionBody[]>(parley, workspace.key, 'GET', `/agents/${agentId}/channels`)).filter(
    (each) => each.channel === 'messenger_a',
  );
  const verifyToken = (connection!.config as { verifyToken: string }).verifyToken;
  // What to paste at Meta, each with its copy button: Meta's check of the URL passes with the token shown.
  const shown = await card.locator('.copy-value code').allInnerTexts();
  expect(shown).toEqual([connection!.inboundUrl, verifyToken]);
  expect(await card.getByRole('button', { name: 'Copy verify token' }).count()).toBe(1);
  expect(await graph.verifyCallback(shown[0]!, shown[1]!)).toEqual({ status: 200, verified: true });
  await page.getByRole('button', { name: 'Test WhatsApp' }).click();
  await expect.poll(() => card.locator('.provider-test').innerText()).toBe('Connected to Parley Test Shop (+1 555-010-0199)');
  await screenshots(page, 'channels-whatsapp-connected');
  await noSeriousViolations();

  // A signed message: a conversation the inbox labels WhatsApp, its answer sent to the number.
  const answered = graph.nextSent('16505550123', 60_000);
  expect(await graph.deliver(customerText('16505550123', 'Sheena Nelson', 'Do you ship to Canada?'))).toBe(200);
  await answered;
  await page.goto(`${parley.url}/dashboard/inbox?channel=messenger_a`);
  const conversation = page.getByRole('list', { name: 'Conversations' }).getByRole('link');
  await expect.poll(() => conversation.locator('.channel-tag').allInnerTexts(), { timeout: 30_000 }).toEqual(['WhatsApp']);
  expect(problems).toEqual([]);
});
