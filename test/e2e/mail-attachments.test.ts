import nodemailer from 'nodemailer';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { ChannelConnectionBody } from '../../src/contract/channel-connections.js';
import type { ConversationBody } from '../support/bodies.js';
import { parleyTest } from '../support/parley-test.js';
import type { SignedInMember, TestParley, Workspace } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import { until } from '../support/until.js';
import { launchBrowser, openContext, screenshots } from './support/browser.js';
import { useSession } from './support/dashboard.js';
import { apiCall } from './support/seed.js';

/**
 * A customer's e-mail with files, forwarded to Parley's SMTP listener: in the member's thread the kept file
 * downloads byte for byte (with the member's credential, which a plain link could not carry), and the one
 * over the size cap is named as not kept.
 */
let browser: Browser;
let parley: TestParley;
let workspace: Workspace;
let owner: SignedInMember;
let page: Page;

const INVOICE = Buffer.from('%PDF-1.4\n% Invoice 2031-07 for Ada Lovelace\n%%EOF\n');

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

parleyTest.beforeAll(async ({ startParley }) => {
  parley = await startParley(STORE_KINDS[0]!, {
    workers: true,
    env: { PARLEY_MAIL_INBOUND_PORT: '0', PARLEY_MAIL_INBOUND_HOST: '127.0.0.1', PARLEY_CHANNEL_ATTACHMENT_MAX_MB: '0.01' },
  });
  workspace = await parley.newWorkspace('Acme support');
  owner = await parley.newMember(workspace.id, 'owner');
  const opened = await openContext(browser, parley.url);
  await useSession(opened.context, parley.url, owner.sessionSecret);
  page = await opened.context.newPage();
});

parleyTest('a member downloads the file a customer mailed, and sees which one was too large to keep', async () => {
  const agentId = (await apiCall(parley, workspace.key, 'POST', '/agents', { name: 'Shop bot' })).id;
  await apiCall<ChannelConnectionBody>(parley, workspace.key, 'POST', `/agents/${agentId}/channels`, {
    channel: 'email',
    config: { address: 'help@shop.example', inbound: 'smtp' },
  });
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: parley.mailInboundPort!, secure: false, ignoreTLS: true });
  await transport.sendMail({
    from: 'Ada Lovelace <ada@example.com>',
    to: 'help@shop.example',
    subject: 'Invoice for order 1042',
    text: 'Hello, the invoice for my order is attached; the photo of the parcel is too.',
    attachments: [
      { filename: 'invoice.pdf', content: INVOICE, contentType: 'application/pdf' },
      { filename: 'parcel-photo.jpg', content: Buffer.alloc(15_000, 7), contentType: 'image/jpeg' },
    ],
  });
  transport.close();
  const [conversation] = await until(
    async () => (await parley.call<ConversationBody[]>('GET', '/conversations?channel=email', { key: workspace.key })).body,
    (list) => list.length === 1,
  );

  await page.goto(`${parley.url}/dashboard/conversations/${conversation!.id}`);
  const files = page.getByRole('list', { name: 'Attachments' });
  await files.getByRole('button', { name: /invoice\.pdf/ }).waitFor();
  await expect(files.getByText('parcel-photo.jpg')).toBeDefined();
  expect(await files.getByText('not kept: too large').count()).toBe(1);
  const [downloaded] = await Promise.all([page.waitForEvent('download'), files.getByRole('button', { name: /invoice\.pdf/ }).click()]);
  expect(downloaded.suggestedFilename()).toBe('invoice.pdf');
  const stream = await downloaded.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).equals(INVOICE)).toBe(true);
  await screenshots(page, 'mail-attachments');
});
