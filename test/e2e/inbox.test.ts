import fs from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { seedConversation } from '../api/conversations-seed.js';
import type { AnswerBody, ConversationBody, DatasourceBody, UpdateStatusResultBody } from '../support/bodies.js';
import { eventOf } from '../support/bodies.js';
import { parleyTest } from '../support/parley-test.js';
import type { SignedInMember, TestParley, Workspace } from '../support/parley.js';
import { SmtpSink } from '../support/smtp-sink.js';
import { STORE_KINDS } from '../support/stores.js';
import { until } from '../support/until.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { DESKTOP, PHONE, launchBrowser, openContext, screenshots, seriousViolations } from './support/browser.js';
import { dashboardLinkIn, useSession } from './support/dashboard.js';
import { apiCall, settled } from './support/seed.js';

/**
 * The inbox against a real Parley: conversations started through the public API appear live, a member
 * takes one over, replies, resolves it (the webhook and the e-mail follow), changes many at once and uses
 * the keyboard. Both stores; the screenshots and the accessibility check on the first only.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const QUESTION = 'How many bottles of water were delivered?';
const MEMO = 'Memo to all staff: 20,000 bottles of water were delivered to the warehouse on Monday. Pallets go to aisle 4.';

/**
 * The page's globals these tests read (they compile without the DOM library): notifications recorded
 * instead of shown (headless Chromium shows none), storage and focus.
 */
interface InboxGlobals {
  shownNotifications: { title: string; body: string }[];
  Notification: unknown;
  localStorage: { getItem(key: string): string | null };
  document: { activeElement: unknown };
}

describe.each(STORE_KINDS)('the inbox on %s', (kind) => {
  let parley: TestParley;
  let workspace: Workspace;
  let owner: SignedInMember;
  let ownerMemberId: string;
  let miaMemberId: string;
  let agentId: string;
  let otherAgentId: string;
  let receiver: WebhookReceiver;
  let sink: SmtpSink;
  const contexts: BrowserContext[] = [];
  // The screens are the same on every store; the second one runs what rests on its own live events (LISTEN/NOTIFY, resuming).
  const onFirstStore = parleyTest.runIf(kind === STORE_KINDS[0]);

  parleyTest.beforeAll(async ({ startParley }) => {
    receiver = await WebhookReceiver.start();
    sink = await SmtpSink.start();
    parley = await startParley(kind, { workers: true, env: { PARLEY_SMTP_URL: sink.url } });
    workspace = await parley.newWorkspace('Acme support');
    owner = await parley.newMember(workspace.id, 'owner');
    await parley.core.store.users.update(owner.userId, { name: 'Olivia Owner' }, new Date().toISOString());
    const mia = await parley.newMember(workspace.id, 'member');
    await parley.core.store.users.update(mia.userId, { name: 'Mia Member' }, new Date().toISOString());
    ownerMemberId = owner.memberId;
    miaMemberId = mia.memberId;
    const key = workspace.key;
    await apiCall(parley, key, 'POST', '/webhooks', { url: receiver.url, events: ['conversation-resolved'] });
    await apiCall(parley, key, 'PATCH', '/workspace/settings', { notifications: { 'conversation-resolved': { admins: true } } });
    const datastore = await apiCall(parley, key, 'POST', '/datastores', { name: 'Handbook' });
    await apiCall(parley, key, 'POST', '/datasources', { type: 'text', datastoreId: datastore.id, name: 'Warehouse memo', text: MEMO });
    await settled(parley, key, datastore.id);
    agentId = (
      await apiCall(parley, key, 'POST', '/agents', {
        name: 'Support bot',
        visibility: 'public',
        tools: [{ type: 'datastore', datastoreId: datastore.id }],
      })
    ).id;
    otherAgentId = (await apiCall(parley, key, 'POST', '/agents', { name: 'Sales bot' })).id;
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await receiver?.close();
    await sink?.close();
  });

  /** A page of the signed-in owner, and the problems (page errors, console errors) it ran into. */
  const ownerPage = async (): Promise<{ page: Page; problems: string[] }> => {
    const { context, problems } = await openContext(browser, parley.url);
    contexts.push(context);
    await useSession(context, parley.url, owner.sessionSecret);
    return { page: await context.newPage(), problems };
  };

  /** The inbox open at `path`, following the events. */
  const openInbox = async (page: Page, path = '/dashboard/inbox'): Promise<void> => {
    await page.goto(path);
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
  };

  /** A visitor's question to the public agent, without a key (a new conversation), or in their conversation with its token. */
  const ask = async (query: string, visitor?: AnswerBody): Promise<AnswerBody> => {
    const response = await parley.call<AnswerBody>('POST', `/agents/${agentId}/query`, {
      key: visitor?.visitorToken ?? null,
      body: visitor === undefined ? { query } : { query, conversationId: visitor.conversationId },
    });
    expect(response.status).toBe(200);
    return response.body;
  };

  const conversation = (id: string) => apiCall<ConversationBody>(parley, workspace.key, 'GET', `/conversations/${id}`);

  parleyTest('a conversation started through the public API shows up live; the member takes it over, replies and resolves it', async () => {
    const { page, problems } = await ownerPage();
    await openInbox(page);
    await page.evaluate(() => Object.assign(globalThis, { notReloaded: true }));
    const list = page.getByRole('list', { name: 'Conversations' });

    // A visitor asks the public agent: the conversation appears in the list, unread, counted in the navigation and the title.
    const visitor = await ask(QUESTION);
    expect(visitor.answer).toMatch(/20,000 bottles/);
    const item = list.getByRole('link', { name: /20,000 bottles/ });
    await item.waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inbox 1 unread' }).waitFor();
    await until(
      () => page.title(),
      (title) => title === '(1) Inbox · Parley',
    );
    await page.getByRole('tab', { name: /^Unresolved 1 conversations 1 unread$/ }).waitFor();

    // Opened, it shows who wrote what and when, the answer's sources behind their summary, and it is read.
    await item.click();
    await page.waitForURL(`**/dashboard/conversations/${visitor.conversationId}`);
    const log = page.getByRole('log', { name: 'Messages' });
    const question = log.getByRole('listitem').filter({ hasText: QUESTION });
    await question.getByText('Visitor', { exact: true }).waitFor();
    await question.locator('time').waitFor();
    const answer = log.getByRole('listitem').filter({ hasText: /20,000 bottles/ });
    await answer.getByText('Support bot', { exact: true }).waitFor();
    const source = answer.getByText('Warehouse memo', { exact: true });
    expect(await source.isVisible()).toBe(false);
    await answer.getByText('1 source').click();
    await source.waitFor();
    await answer.getByText(/score \d\.\d{3}/).waitFor();
    await page.getByRole('link', { name: /^Inbox$/ }).waitFor();
    await until(
      () => page.title(),
      (title) => !title.startsWith('('),
    );

    // The visitor writes again: it appears in the open thread, answered by the agent.
    const followUp = 'And where did the pallets go?';
    await ask(followUp, visitor);
    await log.getByRole('listitem').filter({ hasText: followUp }).waitFor();
    await expect.poll(() => log.getByRole('listitem').filter({ hasText: 'Support bot' }).count()).toBe(2);

    // The member takes over: the next question gets no answer from the agent, and shows up live.
    await page.getByRole('button', { name: 'Take over' }).click();
    await page.getByRole('button', { name: 'Hand back to the agent' }).waitFor();
    // The notice the visitor reads too, naming the member who took over.
    await log.getByText(/^The agent was switched off for this conversation; .+ joined and will answer\.$/).waitFor();
    const unanswered = await ask('Is anybody there?', visitor);
    expect(unanswered.answer).toBeUndefined();
    await log.getByRole('listitem').filter({ hasText: 'Is anybody there?' }).waitFor();

    // The member replies: stored as a person's message, with the member as its sender.
    await page.getByLabel('Reply to the visitor').fill('Yes, Olivia here. Aisle 4, as the memo says.');
    await page.getByRole('button', { name: 'Send reply' }).click();
    await log.getByRole('listitem').filter({ hasText: 'Olivia here' }).getByText('Olivia Owner (you)').waitFor();
    expect(await page.getByLabel('Reply to the visitor').inputValue()).toBe('');
    // Newest first, as the API answers.
    const stored = (await conversation(visitor.conversationId)).messages[0]!;
    expect(stored).toMatchObject({
      from: 'human',
      text: 'Yes, Olivia here. Aisle 4, as the memo says.',
      sender: { type: 'user', id: ownerMemberId, name: 'Olivia Owner' },
    });
    await page.getByRole('button', { name: 'Assigned to Olivia Owner' }).waitFor();

    // Handed back, the agent answers again.
    await page.getByRole('button', { name: 'Hand back to the agent' }).click();
    await page.getByRole('button', { name: 'Take over' }).waitFor();
    expect((await ask('Which aisle again?', visitor)).answer).toBeDefined();
    await log.getByRole('listitem').filter({ hasText: 'Which aisle again?' }).waitFor();

    // Assigned to someone else, then marked as asking for a person.
    await page.getByRole('button', { name: 'Assigned to Olivia Owner' }).click();
    await page.getByRole('menuitemradio', { name: 'Mia Member' }).click();
    await page.getByRole('button', { name: 'Assigned to Mia Member' }).waitFor();
    expect((await conversation(visitor.conversationId)).assignee).toEqual({ id: miaMemberId, name: 'Mia Member' });
    await page.getByRole('button', { name: 'Mark human-requested' }).click();
    await page.getByRole('heading', { level: 2 }).locator('..').getByText('Human requested').waitFor();
    expect((await conversation(visitor.conversationId)).status).toBe('HUMAN_REQUESTED');

    // Exported as JSON and as an HTML page, the visitor's words as text.
    for (const [format, expected] of [
      ['JSON', `"text": "${QUESTION}"`],
      ['HTML', '<!doctype html>'],
    ] as const) {
      await page.getByRole('button', { name: 'Export' }).click();
      const downloaded = page.waitForEvent('download');
      await page.getByRole('menuitem', { name: `Export as ${format}` }).click();
      const download = await downloaded;
      expect(download.suggestedFilename()).toBe(`conversation-${visitor.conversationId}.${format.toLowerCase()}`);
      const file = await fs.readFile((await download.path())!, 'utf8');
      expect(file.toLowerCase()).toContain(expected.toLowerCase());
    }

    // Resolved: the webhook and the e-mail arrive as for any resolution.
    await page.getByRole('button', { name: 'Resolve', exact: true }).click();
    await page.getByRole('button', { name: 'Reopen' }).waitFor();
    const hooks = await until(
      () => receiver.received.filter((hook) => eventOf<'conversation-resolved'>(hook.body).data.conversationId === visitor.conversationId),
      (found) => found.length > 0,
    );
    expect(eventOf(hooks[0]!.body)).toMatchObject({
      type: 'conversation-resolved',
      data: { conversationId: visitor.conversationId, status: 'RESOLVED' },
    });
    const [mail] = await until(
      () =>
        sink.mails.filter(
          (received) =>
            received.mail.subject?.startsWith('Conversation resolved') &&
            received.mail.text?.includes(`/dashboard/conversations/${visitor.conversationId}`),
        ),
      (found) => found.length > 0,
    );
    expect(mail!.to).toContain(owner.email);
    expect(mail!.mail.subject).toBe(`Conversation resolved: ${QUESTION}`);

    expect(await page.evaluate(() => 'notReloaded' in globalThis)).toBe(true);

    // The e-mail's link opens this conversation.
    await page.goto(dashboardLinkIn(mail!, parley.url));
    await page.getByRole('heading', { name: QUESTION, level: 2 }).waitFor();
    expect(problems).toEqual([]);
  });

  onFirstStore('a bulk status change over a filter changes exactly the conversations it counted', async () => {
    const seed = (agent: string, text: string) =>
      seedConversation(parley, workspace.id, { agentId: agent, channel: 'website', messages: [['human', text]] });
    const mine = [
      await seed(otherAgentId, 'Sales question one'),
      await seed(otherAgentId, 'Sales question two'),
      await seed(otherAgentId, 'Sales question three'),
    ];
    const elsewhere = await seedConversation(parley, workspace.id, {
      agentId: otherAgentId,
      channel: 'api',
      messages: [['human', 'Sales over the API']],
    });
    const resolved = await seed(otherAgentId, 'Sales question already done');
    await apiCall(parley, workspace.key, 'PATCH', `/conversations/${resolved.id}`, { status: 'RESOLVED' });
    const untouched = await seed(agentId, 'Support question kept open');

    const { page, problems } = await ownerPage();
    await openInbox(page, `/dashboard/inbox?agentId=${otherAgentId}&channel=website`);
    const list = page.getByRole('list', { name: 'Conversations' });
    await list.getByRole('link', { name: /Sales question three/ }).waitFor();
    expect(await list.getByRole('listitem').count()).toBe(3);
    await page.getByRole('tab', { name: /^Unresolved 3 conversations/, selected: true }).waitFor();

    // The tab, the filters and the search live in the address.
    await page.getByRole('tab', { name: /^All 4 conversations/ }).click();
    await page.waitForURL(`**/inbox?tab=all&agentId=${otherAgentId}&channel=website`);
    await list.getByRole('link', { name: /Sales question already done/ }).waitFor();
    const searchBox = page.getByRole('searchbox', { name: 'Search conversations' });
    await searchBox.fill('question three');
    await page.waitForURL(`**/inbox?tab=all&agentId=${otherAgentId}&channel=website&q=question+three`);
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    await searchBox.fill('');
    await page.getByRole('tab', { name: /^Unresolved/ }).click();
    await page.waitForURL(`**/inbox?agentId=${otherAgentId}&channel=website`);
    await expect.poll(() => list.getByRole('listitem').count()).toBe(3);

    await page.getByRole('button', { name: 'Change status of all…' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Change the status of 3 conversations?' });
    await dialog.getByText(/irreversible/).waitFor();
    expect(await dialog.getByLabel('New status').inputValue()).toBe('RESOLVED');
    const changed = page.waitForResponse((response) => response.url().includes('/conversations/update-status'));
    await dialog.getByRole('button', { name: 'Set 3 to Resolved' }).click();
    const response = await changed;
    expect(new URL(response.url()).searchParams.get('agentId')).toBe(otherAgentId);
    expect(((await response.json()) as UpdateStatusResultBody).count).toBe(3);
    await page.getByRole('heading', { name: 'No conversations match' }).waitFor();
    await page.getByRole('status').filter({ hasText: '3 conversations set to resolved.' }).waitFor();

    for (const { id } of mine) expect((await conversation(id)).status).toBe('RESOLVED');
    expect((await conversation(elsewhere.id)).status).toBe('UNRESOLVED');
    expect((await conversation(untouched.id)).status).toBe('UNRESOLVED');
    expect(problems).toEqual([]);
  });

  onFirstStore('Mine and Unassigned hold only open conversations; a bulk change on Mine changes exactly those counted, in one request', async () => {
    const triageAgentId = (await apiCall(parley, workspace.key, 'POST', '/agents', { name: 'Triage bot' })).id;
    const seed = async (text: string, patch: { status?: string; assigneeId?: string }) => {
      const seeded = await seedConversation(parley, workspace.id, { agentId: triageAgentId, channel: 'website', messages: [['human', text]] });
      if (Object.keys(patch).length > 0) await apiCall(parley, workspace.key, 'PATCH', `/conversations/${seeded.id}`, patch);
      return seeded.id;
    };
    const mineOpen = await seed('Triage mine, open', { assigneeId: ownerMemberId });
    const mineAsking = await seed('Triage mine, asking for a person', { assigneeId: ownerMemberId, status: 'HUMAN_REQUESTED' });
    const mineResolved = await seed('Triage mine, already resolved', { assigneeId: ownerMemberId, status: 'RESOLVED' });
    const mias = await seed('Triage for Mia', { assigneeId: miaMemberId });
    const nobodysOpen = await seed('Triage for nobody, open', {});
    const nobodysResolved = await seed('Triage for nobody, resolved', { status: 'RESOLVED' });

    const { page, problems } = await ownerPage();
    const listRequests: URL[] = [];
    const bulkRequests: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/user-conversations') listRequests.push(url);
      if (url.pathname === '/conversations/update-status') bulkRequests.push(url);
    });
    await openInbox(page, `/dashboard/inbox?tab=mine&agentId=${triageAgentId}`);
    const list = page.getByRole('list', { name: 'Conversations' });
    // The ids of the conversations listed, from their links.
    const listedIds = async () => {
      const hrefs = await Promise.all((await list.getByRole('link').all()).map((link) => link.getAttribute('href')));
      return hrefs.map((href) => href!.split('/conversations/')[1]!.split('?')[0]!).sort();
    };

    // Mine: assigned to me and not resolved, as the API selects them (no resolved one left out afterwards).
    await page.getByRole('tab', { name: /^Mine 2 conversations/, selected: true }).waitFor();
    await expect.poll(listedIds).toEqual([mineOpen, mineAsking].sort());
    expect(listRequests.some((url) => url.searchParams.get('assigneeId') === ownerMemberId && url.searchParams.get('open') === 'true')).toBe(true);
    expect(await list.getByRole('link', { name: /already resolved/ }).count()).toBe(0);

    // Unassigned: nobody's and not resolved.
    await page.getByRole('tab', { name: /^Unassigned/ }).click();
    await page.getByRole('tab', { name: /^Unassigned 1 conversations/, selected: true }).waitFor();
    await expect.poll(listedIds).toEqual([nobodysOpen]);
    expect(listRequests.some((url) => url.searchParams.get('unassigned') === 'true' && url.searchParams.get('open') === 'true')).toBe(true);

    // The bulk change on Mine: the dialog counts 2, one request changes those 2.
    await page.getByRole('tab', { name: /^Mine/ }).click();
    await expect.poll(listedIds).toEqual([mineOpen, mineAsking].sort());
    await page.getByRole('button', { name: 'Change status of all…' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Change the status of 2 conversations?' });
    await dialog.getByText(/irreversible/).waitFor();
    await screenshots(page, 'inbox-bulk-mine', { fullPage: false });
    const changed = page.waitForResponse((response) => new URL(response.url()).pathname === '/conversations/update-status');
    await dialog.getByRole('button', { name: 'Set 2 to Resolved' }).click();
    const response = await changed;
    expect(((await response.json()) as UpdateStatusResultBody).count).toBe(2);
    await page.getByRole('status').filter({ hasText: '2 conversations set to resolved.' }).waitFor();
    expect(bulkRequests).toHaveLength(1);
    expect(Object.fromEntries(bulkRequests[0]!.searchParams)).toEqual({ agentId: triageAgentId, assigneeId: ownerMemberId, open: 'true' });
    await page.getByRole('heading', { name: 'No conversations match' }).waitFor();
    await page.getByRole('tab', { name: /^Mine 0 conversations/ }).waitFor();

    const statuses = async (conversationIds: string[]) => Promise.all(conversationIds.map(async (id) => (await conversation(id)).status));
    expect(await statuses([mineOpen, mineAsking, mineResolved])).toEqual(['RESOLVED', 'RESOLVED', 'RESOLVED']);
    expect(await statuses([mias, nobodysOpen, nobodysResolved])).toEqual(['UNRESOLVED', 'UNRESOLVED', 'RESOLVED']);
    expect(problems).toEqual([]);
  });

  onFirstStore('the visitor panel shows the contact’s phone and the channel’s own id from the conversation, listed or not', async () => {
    const seeded = await seedConversation(parley, workspace.id, {
      agentId,
      channel: 'messenger_a',
      channelExternalId: 'thread-8841',
      contact: { firstName: 'Alan', lastName: 'Turing', email: 'alan@example.org', phoneNumber: '+44 20 7946 0018' },
      messages: [['human', 'Panel question from a messenger']],
    });
    const { page, problems } = await ownerPage();
    // Unassigned and unresolved: the Mine list does not hold it, only the conversation's own record does.
    await openInbox(page, `/dashboard/conversations/${seeded.id}?tab=mine`);
    await page.getByRole('heading', { name: 'Panel question from a messenger', level: 2 }).waitFor();
    const panel = page.getByRole('complementary', { name: 'Visitor and conversation details' });
    await panel.getByText('Alan Turing', { exact: true }).waitFor();
    await panel.getByText('+44 20 7946 0018', { exact: true }).waitFor();
    await panel.getByText('thread-8841', { exact: true }).waitFor();
    await screenshots(page, 'inbox-visitor-panel');
    expect(await page.getByRole('list', { name: 'Conversations' }).locator(`a[href*="${seeded.id}"]`).count()).toBe(0);
    expect(problems).toEqual([]);
  });

  onFirstStore('the keyboard moves through the list, assigns, replies and resolves; ? lists the shortcuts', async () => {
    const first = await seedConversation(parley, workspace.id, { agentId, channel: 'website', messages: [['human', 'Keyboard first question']] });
    const second = await seedConversation(parley, workspace.id, { agentId, channel: 'website', messages: [['human', 'Keyboard second question']] });
    const { page, problems } = await ownerPage();
    await openInbox(page, '/dashboard/inbox?q=Keyboard');
    const list = page.getByRole('list', { name: 'Conversations' });
    await list.getByRole('link', { name: /Keyboard first question/ }).waitFor();
    const heading = page.getByRole('heading', { level: 2 });

    // Most recent first: j opens the second one written, j again the first, k goes back.
    await page.keyboard.press('j');
    await page.waitForURL(`**/conversations/${second.id}?q=Keyboard`);
    await page.keyboard.press('j');
    await page.waitForURL(`**/conversations/${first.id}?q=Keyboard`);
    await heading.filter({ hasText: 'Keyboard first question' }).waitFor();
    await page.keyboard.press('k');
    await page.waitForURL(`**/conversations/${second.id}?q=Keyboard`);
    await heading.filter({ hasText: 'Keyboard second question' }).waitFor();

    // a: assigned to me.
    await page.keyboard.press('a');
    await page.getByRole('button', { name: 'Assigned to Olivia Owner' }).waitFor();
    expect((await conversation(second.id)).assignee).toEqual({ id: ownerMemberId, name: 'Olivia Owner' });

    // r: into the reply box, where letters are text, not shortcuts.
    await page.keyboard.press('r');
    const reply = page.getByLabel('Reply to the visitor');
    expect(await reply.evaluate((element) => element === (globalThis as unknown as InboxGlobals).document.activeElement)).toBe(true);
    await page.keyboard.type('jk');
    expect(await reply.inputValue()).toBe('jk');
    expect(page.url()).toContain(second.id);
    await reply.fill('');
    await page.getByRole('log', { name: 'Messages' }).focus();

    // e: resolved.
    await page.keyboard.press('e');
    await page.getByRole('button', { name: 'Reopen' }).waitFor();
    await until(
      () => conversation(second.id),
      (found) => found.status === 'RESOLVED',
    );

    // ?: the list of shortcuts.
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    for (const key of ['j', 'k', 'r', 'e', 'a', '?']) await help.getByRole('cell', { name: key, exact: true }).waitFor();
    // Shortcuts wait while a dialog is open.
    await page.keyboard.press('j');
    expect(page.url()).toContain(second.id);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
  });

  onFirstStore('a conversation asking for a person shows a desktop notification, when the member turned them on', async () => {
    const { page, problems } = await ownerPage();
    await page.context().grantPermissions(['notifications'], { origin: parley.url });
    await page.addInitScript(() => {
      const scope = globalThis as unknown as InboxGlobals;
      scope.shownNotifications = [];
      const Shown = class {
        static permission = 'granted';
        static requestPermission = async () => 'granted';
        constructor(title: string, options: { body: string }) {
          scope.shownNotifications.push({ title, body: options.body });
        }
        addEventListener(): void {
          // Nobody clicks in a test.
        }
        close(): void {
          // Nothing is on screen.
        }
      };
      scope.Notification = Shown;
    });
    await openInbox(page);
    await page.getByRole('button', { name: /^Alerts off/ }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Desktop notification' }).click();
    await page.getByRole('button', { name: /^Alerts on/ }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as InboxGlobals).localStorage.getItem('parley.alerts'))).toBe(
      '{"desktop":true,"sound":false}',
    );

    const seeded = await seedConversation(parley, workspace.id, {
      agentId,
      contact: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.org' },
      messages: [['human', 'I want to talk to a person about invoice 4471']],
    });
    await apiCall(parley, workspace.key, 'PATCH', `/conversations/${seeded.id}`, { status: 'HUMAN_REQUESTED' });
    const shown = await until(
      () => page.evaluate(() => (globalThis as unknown as InboxGlobals).shownNotifications),
      (notifications) => notifications.length > 0,
    );
    expect(shown).toEqual([{ title: 'Ada Lovelace asks for a person', body: 'I want to talk to a person about invoice 4471' }]);

    // Remembered: after a reload the menu still says so.
    await page.reload();
    await page.getByRole('button', { name: /^Alerts on/ }).waitFor();
    expect(problems).toEqual([]);
  });

  onFirstStore('a datastore page follows a document’s progress while it runs, then the events alone', async () => {
    const { page, problems } = await ownerPage();
    const datastore = await apiCall(parley, workspace.key, 'POST', '/datastores', { name: 'Live store' });
    await apiCall(parley, workspace.key, 'POST', '/datasources', {
      type: 'text',
      datastoreId: datastore.id,
      name: 'Opening hours',
      text: 'We are open from 9 to 5.',
    });
    await settled(parley, workspace.key, datastore.id);
    let listed = 0;
    page.on('request', (request) => {
      if (request.url().endsWith(`/datastores/${datastore.id}/datasources`)) listed++;
    });
    // The worker is faster than a test can watch: while `running` is set, the list says the document runs that far.
    let running: number | null = 0.2;
    await page.route(
      (url) => url.pathname === `/datastores/${datastore.id}/datasources`,
      async (route) => {
        const progress = running;
        if (progress === null) return route.fallback();
        const response = await route.fetch();
        const datasources = (await response.json()) as DatasourceBody[];
        await route.fulfill({ response, json: datasources.map((datasource) => ({ ...datasource, status: 'running', progress })) });
      },
    );
    await page.goto(`/dashboard/datastores/${datastore.id}`);
    const row = page.getByRole('row').filter({ hasText: 'Opening hours' });
    await row.getByText('Running 20%').waitFor();
    await page.getByRole('status').filter({ hasText: 'Processing 1 document…' }).waitFor();
    running = 0.65;
    // Fetched again, unasked: the progress moves.
    await row.getByText('Running 65%').waitFor({ timeout: 10_000 });
    expect(await row.getByRole('progressbar', { name: 'Processing Opening hours' }).getAttribute('value')).toBe('65');
    await screenshots(page, 'datastore-progress', { fullPage: false });
    running = null;
    await row.getByText('Synched').waitFor({ timeout: 10_000 });

    // All settled: no more fetching; a document added elsewhere shows up when the worker's event says it is in.
    const settledAt = listed;
    await page.waitForTimeout(5_000);
    expect(listed).toBe(settledAt);
    await apiCall(parley, workspace.key, 'POST', '/datasources', {
      type: 'text',
      datastoreId: datastore.id,
      name: 'Holidays',
      text: 'Closed on public holidays.',
    });
    await page.getByRole('row').filter({ hasText: 'Holidays' }).getByText('Synched').waitFor({ timeout: 60_000 });
    // The refetch after datasource.synched (a reconnect may add one).
    expect(listed - settledAt).toBeLessThanOrEqual(2);
    expect(problems).toEqual([]);
  });

  parleyTest('after the stream drops, it comes back and resumes after the last event it had', async () => {
    const { page, problems } = await ownerPage();
    const resumedFrom: (string | undefined)[] = [];
    const lastSeen = 'evt_01kbdropped0000000000000000';
    await page.route(
      (url) => url.pathname === '/events/stream',
      async (route) => {
        resumedFrom.push(route.request().headers()['last-event-id']);
        if (resumedFrom.length > 1) return route.fallback();
        // The first connection ends after one event, as when a proxy drops it.
        const envelope = {
          id: lastSeen,
          type: 'conversation.created',
          workspaceId: workspace.id,
          createdAt: new Date().toISOString(),
          data: { conversationId: 'gone', agentId, channel: 'api', status: 'UNRESOLVED', visitorId: null, contactId: null },
        };
        await route.fulfill({
          status: 200,
          contentType: 'text/event-stream',
          body: `event: ready\ndata: {"resumed":true}\n\nid: ${lastSeen}\nevent: conversation.created\ndata: ${JSON.stringify(envelope)}\n\n`,
        });
      },
    );
    await page.goto('/dashboard/inbox');
    await until(
      () => resumedFrom.length,
      (count) => count >= 2,
    );
    expect(resumedFrom).toEqual([undefined, lastSeen]);
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    // That id is unknown to the server: the page refetches, then follows as before.
    const visitor = await ask('Still there after the drop?');
    await page.getByRole('list', { name: 'Conversations' }).locator(`a[href*="${visitor.conversationId}"]`).waitFor();
    expect(problems).toEqual([]);
  });

  onFirstStore('on a phone the list and the thread are two screens', async () => {
    const seeded = await seedConversation(parley, workspace.id, { agentId, channel: 'website', messages: [['human', 'Phone screen question']] });
    const { page, problems } = await ownerPage();
    await page.setViewportSize(PHONE);
    await openInbox(page, '/dashboard/inbox?q=Phone%20screen');
    const list = page.getByRole('list', { name: 'Conversations' });
    await list.getByRole('link', { name: /Phone screen question/ }).click();
    await page.waitForURL(`**/conversations/${seeded.id}?q=Phone+screen`);
    await page.getByRole('heading', { name: 'Phone screen question', level: 2 }).waitFor();
    expect(await list.isVisible()).toBe(false);
    await page.getByRole('link', { name: 'Conversations' }).click();
    await page.waitForURL('**/inbox?q=Phone+screen');
    await list.waitFor();
    expect(await page.getByRole('log', { name: 'Messages' }).count()).toBe(0);
    expect(problems).toEqual([]);
  });

  onFirstStore('pictures: empty and full, light and dark, wide and narrow; no serious accessibility violation', async () => {
    const violations: string[] = [];
    const capture = async (page: Page, name: string, options?: Parameters<typeof screenshots>[2]) => {
      await screenshots(page, name, options);
      violations.push(...(await seriousViolations(page)).map((violation) => `${name}: ${violation}`));
    };
    const empty = await parley.newWorkspace('Empty workspace');
    const newcomer = await parley.newMember(empty.id, 'owner');
    const { context } = await openContext(browser, parley.url);
    contexts.push(context);
    await useSession(context, parley.url, newcomer.sessionSecret);
    const emptyPage = await context.newPage();
    await openInbox(emptyPage);
    await emptyPage.getByRole('heading', { name: 'Nothing here' }).waitFor();
    await capture(emptyPage, 'inbox-empty');

    const { page, problems } = await ownerPage();
    // Every kind of message: the visitor's, the agent's with sources, the notice of a take-over, a member's.
    const visitor = await ask(QUESTION);
    await ask('Thanks! Who signs for the delivery?', visitor);
    await apiCall(parley, workspace.key, 'PATCH', `/conversations/${visitor.conversationId}`, {
      isAiEnabled: false,
      metadata: { plan: 'Pro', orderId: 4471 },
    });
    await apiCall(parley, owner.accessToken, 'POST', `/conversations/${visitor.conversationId}/messages`, {
      text: 'Hello, Olivia here: the warehouse team signs for it.',
    });
    await ask('Great, thank you!', visitor);
    const grace = await seedConversation(parley, workspace.id, {
      agentId,
      channel: 'website',
      channelExternalId: 'web-session-7f3a',
      contact: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.org', phoneNumber: '+1 555 0100' },
      messages: [['human', 'My order #4471 has not arrived. Can a person look at it?']],
    });
    await openInbox(page, '/dashboard/inbox?tab=all');
    await page
      .getByRole('list', { name: 'Conversations' })
      .getByRole('link', { name: /Grace Hopper/ })
      .waitFor();
    await capture(page, 'inbox-list', { fullPage: false });

    await page.goto(`/dashboard/conversations/${grace.id}?tab=all&channel=website&from=2020-01-01`);
    await page.getByRole('heading', { name: /My order #4471/, level: 2 }).waitFor();
    await page.getByText('+1 555 0100').waitFor();
    await page.getByText('web-session-7f3a').waitFor();
    await capture(page, 'inbox-filtered-thread', { fullPage: false });

    await page.goto(`/dashboard/conversations/${visitor.conversationId}?tab=all`);
    const log = page.getByRole('log', { name: 'Messages' });
    await log.getByText('Hello, Olivia here', { exact: false }).waitFor();
    await log
      .getByText(/^\d+ sources?$/)
      .last()
      .click();
    await log.getByText('Warehouse memo', { exact: true }).last().waitFor();
    await capture(page, 'inbox-thread', { fullPage: false });

    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await capture(page, 'inbox-shortcuts', { fullPage: false, viewports: [DESKTOP, PHONE] });
    await page.keyboard.press('Escape');

    await page.goto('/dashboard/inbox?tab=all');
    await page.getByRole('button', { name: 'Change status of all…' }).click();
    await page.getByRole('alertdialog').waitFor();
    await capture(page, 'inbox-bulk', { fullPage: false });
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(problems).toEqual([]);
    expect(violations).toEqual([]);
  });
});
