import http from 'node:http';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseContextBlock } from '../../src/llm/prompt/context-block.js';
import { FakeOpenAIChatServer, GREETING } from '../support/fake-openai-chat-server.js';
import { closeServer, listenOnLoopback } from '../support/loopback-server.js';
import { parleyTest } from '../support/parley-test.js';
import type { SignedInMember, TestParley, Workspace } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import { until } from '../support/until.js';
import { DESKTOP, PHONE, launchBrowser, openContext, screenshots, seriousViolations } from './support/browser.js';
import { apiCall, settled } from './support/seed.js';
import { handoffNotices, noticeText } from '../../src/domain/handoff.js';

/**
 * The chat widget on a customer's page: the page comes from a loopback origin of its own (the test's
 * site), the script and every call from Parley's, with Chromium's own CORS checks (no Playwright route is
 * set: while one is, Playwright answers every preflight itself, and the lead form's PUT passed here while
 * real browsers refused it). The model is a fake OpenAI-compatible server whose
 * answers each test scripts; the docs page it cites is served by the site, so sources have a URL.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const DOCS =
  '<!doctype html><html><head><title>Shipping</title></head><body><main><h1>Shipping</h1>' +
  '<p>Parcels ship within two days of the order. Delivery on Sundays is not available. Returns are free for thirty days.</p></main></body></html>';
const HOSTILE_CSS = '* { font: 40px serif !important; color: red !important } html { font-size: 5px }';

/** What the widget's tests read from the page (they compile without the DOM library). */
interface Probe {
  document: { querySelector(selector: string): ProbeElement | null };
  getComputedStyle(element: ProbeElement): Record<string, string>;
  localStorage: { getItem(key: string): string | null };
  fetch(url: string, init: { method?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number }>;
  pwned?: unknown;
  Parley?: {
    identify(contact: { name?: string; email?: string }): void;
    newConversation(): void;
    open(): void;
    on(event: string, listener: (detail: Record<string, unknown>) => void): void;
  };
  addEventListener(name: string, listener: (event: { detail: Record<string, unknown> }) => void): void;
  seen?: string[];
}
interface ProbeElement {
  shadowRoot: {
    querySelector(selector: string): ProbeElement | null;
    querySelectorAll(selector: string): ArrayLike<ProbeElement>;
    activeElement: ProbeElement | null;
  } | null;
  getAttribute(name: string): string | null;
  tagName: string;
  className: string;
  hidden: boolean;
}

type Csp = 'strict' | 'styles' | 'none';

/**
 * The customer's site: `/page?agent=…&csp=…&lang=…&hostile=1&widget=0&mode=inline&data=…&agent2=…`, its docs
 * and a stylesheet. `data` is more attributes for the script tag, as written; `agent2` a second agent's widget,
 * on the left.
 */
class Site {
  url = '';
  parleyUrl = '';
  readonly #server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://site');
    if (url.pathname === '/docs/shipping') return response.writeHead(200, { 'content-type': 'text/html' }).end(DOCS);
    if (url.pathname === '/hostile.css') return response.writeHead(200, { 'content-type': 'text/css' }).end(HOSTILE_CSS);
    const q = url.searchParams;
    const csp: Csp = (q.get('csp') as Csp | null) ?? 'strict';
    const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' };
    // The strict page allows scripts and connections from Parley only, and no style at all.
    if (csp === 'strict')
      headers['content-security-policy'] =
        `default-src 'none'; script-src ${this.parleyUrl}; connect-src ${this.parleyUrl}; style-src 'none'; img-src 'none'`;
    if (csp === 'styles')
      headers['content-security-policy'] = `default-src 'none'; script-src ${this.parleyUrl}; connect-src ${this.parleyUrl}; style-src 'self'`;
    const attributes = [`data-agent-id="${q.get('agent') ?? ''}"`];
    if (q.get('lang')) attributes.push(`data-lang="${q.get('lang')}"`);
    if (q.get('mode') === 'inline') attributes.push('data-mode="inline" data-target="#help"');
    if (q.get('data')) attributes.push(q.get('data') ?? '');
    const second = q.get('agent2')
      ? `<script src="${this.parleyUrl}/widget.js" data-agent-id="${q.get('agent2')}" data-position="left" async></script>`
      : '';
    const widget = q.get('widget') === '0' ? '' : `<script src="${this.parleyUrl}/widget.js" ${attributes.join(' ')} async></script>${second}`;
    response
      .writeHead(200, headers)
      .end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop</title>` +
          `${q.get('hostile') ? '<link rel="stylesheet" href="/hostile.css">' : ''}</head>` +
          `<body><header><p>Shop home</p></header><h1 id="host-title">Our shop</h1><p id="host-text">We sell things.</p><div id="help"></div>${widget}</body></html>`,
      );
  });

  async start(): Promise<void> {
    this.url = await listenOnLoopback(this.#server);
  }

  close(): Promise<void> {
    return closeServer(this.#server);
  }
}

/** The widget's buttons a finger can see but hardly hit: under 40 px either way, as `name: width×height`. */
async function smallButtons(page: Page): Promise<string[]> {
  const small: string[] = [];
  for (const button of await page.locator('parley-chat').getByRole('button').all()) {
    const box = await button.boundingBox();
    if (box === null || !(await button.isVisible())) continue;
    if (box.width < 40 || box.height < 40)
      small.push(`${(await button.getAttribute('aria-label')) ?? (await button.textContent())}: ${Math.round(box.width)}×${Math.round(box.height)}`);
  }
  return small;
}

const STREAMED = { kind: 'answer' as const, deltas: ['Parcels ', 'ship **within two days** ', 'of the order.'], delayMs: 250 };

describe.each(STORE_KINDS.slice(0, 1))('the chat widget on %s', (kind) => {
  const upstream = new FakeOpenAIChatServer({ defaultReply: GREETING });
  const site = new Site();
  let parley: TestParley;
  let workspace: Workspace;
  let member: SignedInMember;
  let agentId: string;
  const contexts: BrowserContext[] = [];

  parleyTest.beforeAll(async ({ startParley }) => {
    const baseURL = await upstream.start();
    await site.start();
    parley = await startParley(kind, {
      workers: true,
      env: {
        PARLEY_MODELS: JSON.stringify({ remote: { provider: 'openai-compatible', model: 'fake-chat', baseURL } }),
        // Every page of these tests comes from one address: the default 60 calls a minute would refuse the later ones.
        PARLEY_RATE_LIMIT_IP_PER_MINUTE: '100000',
      },
    });
    site.parleyUrl = parley.url;
    workspace = await parley.newWorkspace('Shop');
    member = await parley.newMember(workspace.id);
    const key = workspace.key;
    const datastore = await apiCall(parley, key, 'POST', '/datastores', { name: 'Help centre' });
    await apiCall(parley, key, 'POST', '/datasources', {
      type: 'web_page',
      datastoreId: datastore.id,
      name: 'Shipping',
      config: { source_url: `${site.url}/docs/shipping` },
    });
    await settled(parley, key, datastore.id);
    agentId = (
      await apiCall(parley, key, 'POST', '/agents', {
        name: 'Shop helper',
        visibility: 'public',
        modelName: 'remote',
        tools: [{ type: 'datastore', datastoreId: datastore.id }],
      })
    ).id;
  }, 180_000);

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await site.close();
    await upstream.stop();
  });

  const newAgent = async (body: object) =>
    (await apiCall(parley, workspace.key, 'POST', '/agents', { name: 'Helper', visibility: 'public', modelName: 'remote', ...body })).id;

  async function openPage(query: Record<string, string>): Promise<{ page: Page; problems: string[] }> {
    const { context, problems } = await openContext(browser, site.url, { realPreflights: true });
    contexts.push(context);
    const page = await context.newPage();
    page.on('dialog', (dialog) => {
      problems.push(`a dialog opened: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await page.goto(`/page?${new URLSearchParams(query)}`);
    return { page, problems };
  }

  /** Asks in the open chat and waits for the scripted answer; answers the question box. */
  async function askAndWait(page: Page, question: string, deltas: string[]): Promise<Locator> {
    upstream.replies.push({ kind: 'answer', deltas });
    const input = page.getByRole('textbox', { name: 'Write your question…' });
    await input.fill(question);
    await input.press('Enter');
    await page.getByText(deltas.join('')).waitFor();
    return input;
  }

  const visitorOf = async (page: Page, agent: string): Promise<{ conversationId: string; visitorToken: string }> => {
    const stored = await page.evaluate((key) => (globalThis as unknown as Probe).localStorage.getItem(key), `parley:${agent}`);
    return JSON.parse(stored ?? '{}') as { conversationId: string; visitorToken: string };
  };
  const conversationIdOf = async (page: Page, agent: string): Promise<string> => (await visitorOf(page, agent)).conversationId;
  const conversation = (id: string) =>
    apiCall<{
      status: string;
      isAiEnabled: boolean;
      messages: { id: string; from: string; text: string; eval: string | null }[];
      participantsContacts: { email: string | null; firstName: string | null }[];
    }>(parley, workspace.key, 'GET', `/conversations/${id}`);

  it('streams an answer with its sources on a strict-CSP page, restores it on reload, hands over to a person who answers live', async () => {
    const { page, problems } = await openPage({ agent: agentId });
    await screenshots(page, 'widget-bubble', { fullPage: false });
    await page.getByRole('button', { name: 'Open the chat' }).click();
    const input = page.getByRole('textbox', { name: 'Write your question…' });
    await expect
      .poll(() =>
        page.evaluate(() => {
          const host = (globalThis as unknown as Probe).document.querySelector('parley-chat');
          return host?.shadowRoot?.activeElement?.tagName;
        }),
      )
      .toBe('TEXTAREA');
    let streamRest = () => {};
    upstream.replies.push({ ...STREAMED, restAfter: new Promise<void>((resolve) => (streamRest = resolve)) });
    await input.fill('When do parcels ship?');
    await input.press('Enter');
    // The answer shows while it streams (busy), then whole, with bold rendered and the cited page linked.
    await page.locator('.msg[aria-busy=true]', { hasText: 'Parcels' }).waitFor();
    streamRest();
    await page.getByText('of the order.').waitFor();
    await expect(page.locator('.msg strong').textContent()).resolves.toBe('within two days');
    const source = page.getByRole('link', { name: 'Shipping' });
    await expect(source.getAttribute('href')).resolves.toBe(`${site.url}/docs/shipping`);
    await expect(source.getAttribute('rel')).resolves.toBe('noopener noreferrer');
    const conversationId = await conversationIdOf(page, agentId);
    expect(conversationId).toBeTruthy();
    await screenshots(page, 'widget-open', { fullPage: false });

    await page.getByRole('button', { name: 'Helpful', exact: true }).click();
    await until(
      () => conversation(conversationId),
      (c) => c.messages.some((m) => m.from === 'agent' && m.eval === 'GOOD'),
      5_000,
    );

    await page.reload();
    await page.getByRole('button', { name: 'Open the chat' }).click();
    await page.getByText('When do parcels ship?').waitFor();
    await page.getByText('of the order.').waitFor();
    await expect(page.getByRole('button', { name: 'Helpful', exact: true }).getAttribute('aria-pressed')).resolves.toBe('true');
    await page.getByRole('link', { name: 'Shipping' }).waitFor();

    await page.getByRole('button', { name: 'Talk to a person' }).click();
    await page.getByText(noticeText(handoffNotices.humanRequested(null))).waitFor();
    expect((await conversation(conversationId)).status).toBe('HUMAN_REQUESTED');

    await apiCall(parley, member.accessToken, 'POST', `/conversations/${conversationId}/messages`, { text: 'Hello, I am checking your order now.' });
    await page.getByText('Hello, I am checking your order now.').waitFor({ timeout: 5_000 });
    await page.locator('.who', { hasText: 'Test person' }).waitFor();
    await page.getByText(noticeText(handoffNotices.personJoined('Test person'))).waitFor();
    await apiCall(parley, workspace.key, 'PATCH', `/conversations/${conversationId}`, { status: 'RESOLVED' });
    await page.getByText('This conversation is resolved.').waitFor({ timeout: 5_000 });
    expect(problems).toEqual([]);
  });

  it('goes quiet once the visitor asks for a person, says what happens next, and shows live that a member joined', async () => {
    const agent = await newAgent({ name: 'Shop helper' });
    const { page, problems } = await openPage({ agent });
    await page.getByRole('button', { name: 'Open the chat' }).click();
    const input = await askAndWait(page, 'Where is my parcel?', ['It is on its way.']);
    const { conversationId } = await visitorOf(page, agent);
    await page.getByRole('button', { name: 'Talk to a person' }).click();
    const requested = page.locator('.system', { hasText: noticeText(handoffNotices.humanRequested(null)) });
    await requested.waitFor();
    await expect(page.getByRole('button', { name: 'Talk to a person' }).count()).resolves.toBe(0);

    // The next message waits for the team: no answer, no call to the model.
    const calls = upstream.requests.length;
    const answers = await page.locator('.msg:not(.mine)').count();
    await input.fill('It was due yesterday.');
    await input.press('Enter');
    await until(
      () => conversation(conversationId),
      (c) => c.messages.some((m) => m.text === 'It was due yesterday.'),
      5_000,
    );
    await expect.poll(() => page.getByRole('button', { name: 'Send' }).isEnabled()).toBe(true);
    expect(upstream.requests.length).toBe(calls);
    await expect(page.locator('.msg:not(.mine)').count()).resolves.toBe(answers);
    await expect(page.locator('.msg[aria-busy=true]').count()).resolves.toBe(0);
    await expect(page.getByText('It was due yesterday.').count()).resolves.toBe(1);

    // A member takes over with a reply: the widget says who joined, live, as a notice line (text, centred).
    await apiCall(parley, member.accessToken, 'POST', `/conversations/${conversationId}/messages`, { text: 'Ann here, let me look.' });
    const joined = page.locator('.system', { hasText: noticeText(handoffNotices.personJoined('Test person')) });
    await joined.waitFor({ timeout: 5_000 });
    await page.getByText('Ann here, let me look.').waitFor();
    // Text only: the name is isolated in a <bdi> that holds its text and nothing else.
    await expect(joined.locator('*').count()).resolves.toBe(1);
    await expect(joined.locator('bdi').textContent()).resolves.toBe('Test person');
    await expect(
      joined.evaluate((element) => (globalThis as unknown as Probe).getComputedStyle(element as unknown as ProbeElement).textAlign),
    ).resolves.toBe('center');
    await screenshots(page, 'widget-handoff', { fullPage: false });

    // After a reload the notices are read back from the history, in their place.
    await page.reload();
    await page.getByRole('button', { name: 'Open the chat' }).click();
    await page.getByText('Ann here, let me look.').waitFor();
    const notices = await page.locator('.system').allTextContents();
    expect(notices).toEqual([noticeText(handoffNotices.humanRequested(null)), noticeText(handoffNotices.personJoined('Test person'))]);
    expect(problems).toEqual([]);
  });

  it('lists only the passage the answer cites, numbered as the text cites it, without the model’s own “Sources:” line', async () => {
    const datastore = await apiCall(parley, workspace.key, 'POST', '/datastores', { name: 'Shop pages' });
    const pages = {
      'Returns.txt': 'Unworn items can be returned within 30 days.',
      'Ducks.txt': 'Ducks return to their ponds every spring.',
      'Opening hours.txt': 'The shop opens at nine and returns are taken until five.',
    };
    for (const [name, text] of Object.entries(pages))
      await apiCall(parley, workspace.key, 'POST', '/datasources', { type: 'text', datastoreId: datastore.id, name, text });
    await settled(parley, workspace.key, datastore.id);
    const agent = await newAgent({ tools: [{ type: 'datastore', datastoreId: datastore.id }] });
    const { page, problems } = await openPage({ agent });
    await page.getByRole('button', { name: 'Open the chat' }).click();
    upstream.replies.push({ kind: 'answer', deltas: ['Within 30 days [', '2].', '\n\nSources: Ducks.txt; Opening hours.txt'] });
    const input = page.getByRole('textbox', { name: 'Write your question…' });
    await input.fill('How long do I have to return an item?');
    await input.press('Enter');
    await page.getByText('Within 30 days [1].', { exact: true }).waitFor();
    const passages = parseContextBlock(String(upstream.requests.at(-1)?.body.messages.at(-1)?.content))?.passages ?? [];
    expect(passages.length).toBeGreaterThanOrEqual(2);
    const cited = passages[1]!.source;
    const sources = page.locator('.sources li');
    await expect(sources.allTextContents()).resolves.toEqual([cited]);
    await expect(page.getByText(/Sources:/).count()).resolves.toBe(0);
    await screenshots(page, 'widget-sources', { fullPage: false });
    expect(problems).toEqual([]);
  });

  it('asks for the visitor’s details after the first answer, checks them, and stores them as the contact', async () => {
    const agent = await newAgent({ widget: { leadForm: { mode: 'after-first-answer', name: 'optional', email: 'required', phone: 'optional' } } });
    const { page, problems } = await openPage({ agent });
    await page.getByRole('button', { name: 'Open the chat' }).click();
    upstream.replies.push({ kind: 'answer', deltas: ['Yes, we do.'] });
    await page.getByRole('textbox', { name: 'Write your question…' }).fill('Do you ship abroad?');
    await page.keyboard.press('Enter');
    await page.getByText('Yes, we do.').waitFor();
    await page.getByRole('textbox', { name: 'Name (optional)' }).fill('Ada');
    await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill('not-an-email');
    await page.getByRole('button', { name: 'Send details' }).click();
    await page.getByText('Please enter a valid e-mail address.').waitFor();
    await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill('ada@example.com');
    await page.getByRole('button', { name: 'Send details' }).click();
    await page.getByText('Thank you, we have your details.').waitFor();
    const id = await conversationIdOf(page, agent);
    const stored = await until(
      () => conversation(id),
      (c) => c.participantsContacts.length > 0,
      5_000,
    );
    expect(stored.participantsContacts[0]).toMatchObject({ email: 'ada@example.com', firstName: 'Ada' });
    expect(problems).toEqual([]);
  });

  it('asks for the details before the first question when the tag says so; the tag also turns off ratings and the hand-over', async () => {
    const agent = await newAgent({ widget: { leadForm: { mode: 'off', name: 'optional', email: 'required', phone: 'off' } } });
    const data = 'data-lead-form="before-first-question" data-ratings="off" data-human-handoff="False"';
    const { page, problems } = await openPage({ agent, data });
    await page.getByRole('button', { name: 'Open the chat' }).click();
    await page.getByText('Before we start, how can we reach you?').waitFor();
    // The question waits for the form: nothing is sent, the first field takes the focus.
    const input = page.getByRole('textbox', { name: 'Write your question…' });
    await input.fill('Do you ship abroad?');
    await input.press('Enter');
    await expect
      .poll(() =>
        page.evaluate(() => (globalThis as unknown as Probe).document.querySelector('parley-chat')?.shadowRoot?.activeElement?.getAttribute('name')),
      )
      .toBe('name');
    expect(await page.locator('.msg.mine').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Not now' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Send details' }).click();
    await page.getByText('Please fill in this field.').waitFor();
    await screenshots(page, 'widget-lead-before', { fullPage: false });
    await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill('lin@example.com');
    await page.getByRole('button', { name: 'Send details' }).click();
    // No conversation holds the details yet: they go with the first question, and the thanks once stored.
    await page.getByRole('button', { name: 'Send details' }).waitFor({ state: 'detached' });
    expect(await page.getByText('Thank you, we have your details.').count()).toBe(0);
    upstream.replies.push({ kind: 'answer', deltas: ['Yes, to most countries.'] });
    await input.press('Enter');
    await page.getByText('Yes, to most countries.').waitFor();
    await page.getByText('Thank you, we have your details.').waitFor();
    const id = await conversationIdOf(page, agent);
    const stored = await until(
      () => conversation(id),
      (c) => c.participantsContacts.length > 0,
      5_000,
    );
    expect(stored.participantsContacts[0]).toMatchObject({ email: 'lin@example.com' });
    expect(await page.getByRole('button', { name: 'Helpful', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Talk to a person' }).count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('answers to Parley.identify(), Parley.newConversation() and Parley.on(), and tells the page with parley:* events', async () => {
    const agent = await newAgent({});
    const { page, problems } = await openPage({ agent });
    await page.getByRole('button', { name: 'Open the chat' }).waitFor();
    await page.evaluate(() => {
      const scope = globalThis as unknown as Probe;
      const seen: string[] = [];
      scope.seen = seen;
      for (const name of ['open', 'close', 'message']) scope.Parley?.on(name, (detail) => seen.push(`${name} ${String(detail.from ?? '')}`.trim()));
      scope.addEventListener('parley:message', (event) => seen.push(`window ${String(event.detail.agentId)}`));
      scope.Parley?.identify({ name: 'Grace', email: 'grace@example.com' });
      scope.Parley?.open();
    });
    await page.getByRole('dialog', { name: 'Helper' }).waitFor();
    upstream.replies.push({ kind: 'answer', deltas: ['We open at nine.'] });
    const input = page.getByRole('textbox', { name: 'Write your question…' });
    await input.fill('When do you open?');
    await input.press('Enter');
    await page.getByText('We open at nine.').waitFor();
    const first = await conversationIdOf(page, agent);
    const stored = await until(
      () => conversation(first),
      (c) => c.participantsContacts.length > 0,
      5_000,
    );
    expect(stored.participantsContacts[0]).toMatchObject({ email: 'grace@example.com', firstName: 'Grace' });

    await page.evaluate(() => (globalThis as unknown as Probe).Parley?.newConversation());
    await expect.poll(() => page.getByText('When do you open?').count()).toBe(0);
    expect(await conversationIdOf(page, agent)).toBeUndefined();
    upstream.replies.push({ kind: 'answer', deltas: ['Free above fifty.'] });
    await input.fill('Is shipping free?');
    await input.press('Enter');
    await page.getByText('Free above fifty.').waitFor();
    const second = await conversationIdOf(page, agent);
    expect(second).toBeTruthy();
    expect(second).not.toBe(first);

    // Escape on the bubble itself closes the open panel.
    await page.getByRole('button', { name: 'Hide the chat' }).focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    const seen = await page.evaluate(() => (globalThis as unknown as Probe).seen);
    expect(seen).toEqual(['open', 'message agent', `window ${agent}`, 'message agent', `window ${agent}`, 'close']);
    expect(problems).toEqual([]);
  });

  it('keeps two agents on one page apart: their own storage, their own conversations', async () => {
    const other = await newAgent({ name: 'Returns desk' });
    const { page, problems } = await openPage({ agent: agentId, agent2: other });
    const shop = page.locator(`parley-chat[data-agent-id="${agentId}"]`);
    const returns = page.locator(`parley-chat[data-agent-id="${other}"]`);
    await returns.getByRole('button', { name: 'Open the chat' }).click();
    upstream.replies.push({ kind: 'answer', deltas: ['Returns are free.'] });
    await returns.getByRole('textbox', { name: 'Write your question…' }).fill('Are returns free?');
    await returns.getByRole('textbox', { name: 'Write your question…' }).press('Enter');
    await returns.getByText('Returns are free.').waitFor();
    await returns.getByRole('button', { name: 'Close the chat' }).click();
    await shop.getByRole('button', { name: 'Open the chat' }).click();
    expect(await shop.getByText('Are returns free?').count()).toBe(0);
    upstream.replies.push({ kind: 'answer', deltas: ['Within two days.'] });
    await shop.getByRole('textbox', { name: 'Write your question…' }).fill('When do parcels ship?');
    await shop.getByRole('textbox', { name: 'Write your question…' }).press('Enter');
    await shop.getByText('Within two days.').waitFor();
    const ids = [await conversationIdOf(page, agentId), await conversationIdOf(page, other)];
    expect(ids[0]).toBeTruthy();
    expect(ids[1]).toBeTruthy();
    expect(ids[0]).not.toBe(ids[1]);
    const [mine, theirs] = await Promise.all(ids.map((id) => conversation(id)));
    // The API answers a conversation's messages newest first.
    expect(mine?.messages.map((m) => m.text)).toEqual(['Within two days.', 'When do parcels ship?']);
    expect(theirs?.messages.map((m) => m.text)).toEqual(['Returns are free.', 'Are returns free?']);
    expect(await returns.getByText('When do parcels ship?').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('speaks French with data-lang="fr"', async () => {
    const { page, problems } = await openPage({ agent: agentId, lang: 'fr' });
    await page.getByRole('button', { name: 'Ouvrir la discussion' }).click();
    await page.getByText('Propulsé par Parley').waitFor();
    upstream.replies.push({ kind: 'answer', deltas: ['Sous deux jours.'] });
    const input = page.getByRole('textbox', { name: 'Écrivez votre question…' });
    await input.fill('Quand expédiez-vous ?');
    await input.press('Enter');
    await page.getByText('Sous deux jours.').waitFor();
    await page.getByRole('button', { name: 'Utile', exact: true }).waitFor();
    const { conversationId, visitorToken } = await visitorOf(page, agentId);
    await apiCall(parley, visitorToken, 'PUT', `/agents/${agentId}/conversation/contact`, { email: 'ada@example.com' });
    await page.getByRole('button', { name: 'Parler à une personne' }).click();
    // The server's notices, worded in French from their kind; the team reads them in English.
    await page
      .getByText('Une personne va vous répondre ici sous peu. Si vous partez, nous pourrons aussi vous répondre par e-mail à ada@example.com.')
      .waitFor();
    await apiCall(parley, member.accessToken, 'POST', `/conversations/${conversationId}/messages`, { text: 'Bonjour, je regarde.' });
    await page
      .getByText('L’agent a été désactivé pour cette conversation ; Test person l’a rejointe et va vous répondre.')
      .waitFor({ timeout: 5_000 });
    await screenshots(page, 'widget-fr', { fullPage: false });
    expect((await conversation(conversationId)).messages.filter((m) => m.from === 'system').map((m) => m.text)).toEqual([
      noticeText(handoffNotices.personJoined('Test person')),
      noticeText(handoffNotices.humanRequested('ada@example.com')),
    ]);
    // Read back after a reload: still French.
    await page.reload();
    await page.getByRole('button', { name: 'Ouvrir la discussion' }).click();
    await page.getByText('Une personne va vous répondre ici sous peu.').waitFor();
    expect(await page.getByText('A person will answer here soon.').count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Ouvrir la discussion' }).waitFor();
    expect(problems).toEqual([]);
  });

  it('words the notices in Arabic, the e-mail and the name kept as they are', async () => {
    const agent = await newAgent({});
    const { page, problems } = await openPage({ agent, lang: 'ar' });
    await page.getByRole('button', { name: 'افتح المحادثة' }).click();
    upstream.replies.push({ kind: 'answer', deltas: ['خلال يومين.'] });
    const input = page.getByRole('textbox', { name: 'اكتب سؤالك…' });
    await input.fill('متى تشحنون؟');
    await input.press('Enter');
    await page.getByText('خلال يومين.').waitFor();
    const { conversationId, visitorToken } = await visitorOf(page, agent);
    await apiCall(parley, visitorToken, 'PUT', `/agents/${agent}/conversation/contact`, { email: 'ada@example.com' });
    await page.getByRole('button', { name: 'التحدث إلى شخص' }).click();
    const requested = page.locator('.system', { hasText: 'سيجيبك أحد الأشخاص هنا قريبًا.' });
    await requested.waitFor();
    expect(await requested.locator('bdi').textContent()).toBe('ada@example.com');
    await apiCall(parley, member.accessToken, 'POST', `/conversations/${conversationId}/messages`, { text: 'مرحبًا' });
    const joined = page.locator('.system', { hasText: 'تم إيقاف الوكيل في هذه المحادثة؛ انضم Test person وسيجيبك.' });
    await joined.waitFor({ timeout: 5_000 });
    expect(problems).toEqual([]);
  });

  it('resumes the live stream after the last event it saw: a reply sent while the page was away shows once', async () => {
    const agent = await newAgent({});
    const { page, problems } = await openPage({ agent });
    const resumedFrom: (string | undefined)[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/conversation/events')) resumedFrom.push(request.headers()['last-event-id']);
    });
    await page.getByRole('button', { name: 'Open the chat' }).click();
    upstream.replies.push({ kind: 'answer', deltas: ['Let me check.'] });
    // The stream answers once the server follows the conversation: a reply posted before that reaches
    // the page through the transcript read again, without an event id to resume from.
    const following = page.waitForResponse((response) => response.url().endsWith('/conversation/events'));
    const input = page.getByRole('textbox', { name: 'Write your question…' });
    await input.fill('Where is my parcel?');
    await input.press('Enter');
    await page.getByText('Let me check.').waitFor();
    await following;
    const id = await conversationIdOf(page, agent);
    await apiCall(parley, member.accessToken, 'POST', `/conversations/${id}/messages`, { text: 'It left this morning.' });
    await page.getByText('It left this morning.').waitFor({ timeout: 5_000 });
    const lastEventId = () =>
      page.evaluate(
        (key) => (JSON.parse((globalThis as unknown as Probe).localStorage.getItem(key) ?? '{}') as { lastEventId?: string }).lastEventId,
        `parley:${agent}`,
      );
    await expect.poll(lastEventId).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = await lastEventId();

    await page.goto('/page?widget=0');
    await apiCall(parley, member.accessToken, 'POST', `/conversations/${id}/messages`, { text: 'It arrives tomorrow.' });
    resumedFrom.length = 0;
    await page.goto(`/page?agent=${agent}`);
    await page.getByRole('button', { name: 'Open the chat' }).click();
    await page.getByText('It arrives tomorrow.').waitFor({ timeout: 5_000 });
    await expect.poll(() => resumedFrom).toEqual([before]);
    // The reply is both in the transcript and in the resumed stream's backlog: it shows once.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await page.getByText('It arrives tomorrow.').count()).toBe(1);
    expect(await page.getByText('It left this morning.').count()).toBe(1);
    expect(problems).toEqual([]);
  });

  it('shows a rate limit as a sentence and keeps the question', async () => {
    const agent = await newAgent({});
    await apiCall(parley, workspace.key, 'PATCH', '/workspace/settings', { rateLimits: { visitorPerMinute: 1 } });
    try {
      const { page } = await openPage({ agent });
      await page.getByRole('button', { name: 'Open the chat' }).click();
      const input = await askAndWait(page, 'One', ['First answer.']);
      await input.fill('Two');
      await input.press('Enter');
      await page.getByText('Too many messages at once.', { exact: false }).waitFor();
      await expect(input.inputValue()).resolves.toBe('Two');
    } finally {
      await apiCall(parley, workspace.key, 'PATCH', '/workspace/settings', { rateLimits: { visitorPerMinute: null } });
    }
  });

  it('renders hostile text from the model, a person, the agent’s name and greeting as text: nothing runs', async () => {
    const payloads = [
      '<script>window.pwned = 1</script>',
      '<img src=x onerror="window.pwned = 2">',
      '[click me](javascript:window.pwned=3)',
      '<svg onload="window.pwned = 4"><circle r=1></circle></svg>',
      '[tricky](JaVaScRiPt:window.pwned=5) [data](data:text/html,<script>window.pwned=6</script>) [spaced]( javascript:window.pwned=7)',
      '<a href="javascript:window.pwned=8">anchor</a> <iframe src="javascript:window.pwned=9"></iframe>',
    ].join('\n\n');
    const agent = await newAgent({
      name: '<img src=x onerror="window.pwned=10">',
      widget: { greeting: '<b onmouseover="window.pwned=11">hi</b> [x](javascript:window.pwned=12)' },
    });
    // No CSP on this page: the widget itself must keep the payloads inert.
    const { page, problems } = await openPage({ agent, csp: 'none' });
    await page.getByRole('button', { name: 'Open the chat' }).click();
    upstream.replies.push({ kind: 'answer', deltas: [payloads] });
    await page.getByRole('textbox', { name: 'Write your question…' }).fill('<script>window.pwned = 13</script>');
    await page.keyboard.press('Enter');
    await page.getByText('<svg onload', { exact: false }).waitFor();
    const id = await conversationIdOf(page, agent);
    await apiCall(parley, member.accessToken, 'POST', `/conversations/${id}/messages`, {
      text: '<img src=x onerror="window.pwned=14"> [a](javascript:window.pwned=15)',
    });
    await page.getByText('<img src=x onerror="window.pwned=14">', { exact: false }).waitFor();
    await page.mouse.move(0, 0);
    for (const anchor of await page.locator('parley-chat a').all()) await anchor.hover();
    const found = await page.evaluate(() => {
      const scope = globalThis as unknown as Probe;
      const shadow = scope.document.querySelector('parley-chat')?.shadowRoot;
      const tags = Array.from(shadow?.querySelectorAll('script, img, iframe, svg circle, [onerror], [onload], [onmouseover]') ?? []).map(
        (e) => e.tagName,
      );
      const hrefs = Array.from(shadow?.querySelectorAll('a') ?? []).map((a) => a.getAttribute('href'));
      return { pwned: scope.pwned, tags, hrefs, title: shadow?.querySelector('h2')?.getAttribute('id') };
    });
    expect(found.pwned).toBeUndefined();
    expect(found.tags).toEqual([]);
    for (const href of found.hrefs) expect(href).toMatch(/^(https?|mailto):/);
    await page.getByRole('heading', { name: '<img src=x onerror="window.pwned=10">' }).waitFor();
    expect(problems).toEqual([]);
  });

  it('is sealed from the host page’s styles and leaves the host page’s styles alone', async () => {
    const styleOf = (page: Page) =>
      page.evaluate(() => {
        const scope = globalThis as unknown as Probe;
        const shadow = scope.document.querySelector('parley-chat')?.shadowRoot;
        const pick = (selector: string, properties: string[]) => {
          const element = shadow?.querySelector(selector);
          const style = element ? scope.getComputedStyle(element) : {};
          return Object.fromEntries(properties.map((p) => [p, style[p]]));
        };
        return {
          launcher: pick('.launcher', ['width', 'height', 'backgroundColor', 'borderRadius']),
          title: pick('h2', ['fontSize', 'fontFamily', 'color']),
          message: pick('.msg', ['fontSize', 'fontFamily', 'color', 'lineHeight']),
          input: pick('textarea', ['fontSize', 'fontFamily', 'color']),
        };
      });
    const hostOf = (page: Page) =>
      page.evaluate(() => {
        const scope = globalThis as unknown as Probe;
        return ['#host-title', '#host-text', 'body'].map((selector) => {
          const element = scope.document.querySelector(selector);
          const style = element ? scope.getComputedStyle(element) : {};
          return [style.fontSize, style.fontFamily, style.color, style.margin, style.lineHeight, style.boxSizing].join('|');
        });
      });
    const open = async (query: Record<string, string>) => {
      const { page } = await openPage({ agent: agentId, csp: 'styles', ...query });
      await page.getByRole('button', { name: 'Open the chat' }).click();
      await page.locator('.msg').first().waitFor();
      return page;
    };
    const plain = await open({});
    const hostile = await open({ hostile: '1' });
    const sealed = await styleOf(plain);
    expect(sealed.message.fontSize).toBe('14px');
    expect(sealed.input.fontSize).toBe('16px');
    expect(await styleOf(hostile)).toEqual(sealed);

    const { page: without } = await openPage({ agent: agentId, csp: 'styles', widget: '0' });
    expect(await hostOf(plain)).toEqual(await hostOf(without));
  });

  it('works with the keyboard alone, passes axe inside the shadow root, and lays Arabic out right to left', async () => {
    const { page, problems } = await openPage({ agent: agentId });
    await page.getByRole('button', { name: 'Open the chat' }).waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const focused = () =>
      page.evaluate(() => {
        const host = (globalThis as unknown as Probe).document.querySelector('parley-chat');
        const active = host?.shadowRoot?.activeElement;
        return active ? `${active.tagName} ${active.className}`.trim() : null;
      });
    await expect.poll(focused).toBe('TEXTAREA');
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.keyboard.press('Escape');
    await expect.poll(focused).toBe('BUTTON launcher');
    expect(await page.getByRole('dialog').count()).toBe(0);

    const { page: arabic } = await openPage({ agent: agentId, lang: 'ar' });
    await arabic.getByRole('button', { name: 'افتح المحادثة' }).click();
    const direction = await arabic.evaluate(() => {
      const scope = globalThis as unknown as Probe;
      const textarea = scope.document.querySelector('parley-chat')?.shadowRoot?.querySelector('textarea');
      return textarea ? scope.getComputedStyle(textarea).direction : null;
    });
    expect(direction).toBe('rtl');
    await screenshots(arabic, 'widget-ar', { fullPage: false });
    expect(problems).toEqual([]);
  });

  it('makes every call from a page of an origin the agent allows: question, stream, lead form, rating, person, history, live', async () => {
    expect(new URL(site.url).origin).not.toBe(new URL(parley.url).origin);
    const leadForm = { mode: 'after-first-answer', name: 'optional', email: 'required', phone: 'off' };
    const agent = await newAgent({ name: 'Shop helper', allowedOrigins: [site.url], widget: { leadForm } });
    const { page, problems } = await openPage({ agent });
    await page.getByRole('button', { name: 'Open the chat' }).click();
    await askAndWait(page, 'When do parcels ship?', ['Parcels ship ', 'within two days.']);
    const { conversationId, visitorToken } = await visitorOf(page, agent);

    // The lead form (a PUT): thanked only once stored, and stored as the conversation's contact.
    await page.getByRole('textbox', { name: 'Name (optional)' }).fill('Ada');
    await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill('ada@example.com');
    await screenshots(page, 'widget-foreign-lead', { fullPage: false, viewports: [DESKTOP, PHONE] });
    await page.getByRole('button', { name: 'Send details' }).click();
    await page.getByText('Thank you, we have your details.').waitFor();
    expect((await conversation(conversationId)).participantsContacts[0]).toMatchObject({ firstName: 'Ada', email: 'ada@example.com' });

    await page.getByRole('button', { name: 'Helpful', exact: true }).click();
    await until(
      () => conversation(conversationId),
      (c) => c.messages.some((m) => m.from === 'agent' && m.eval === 'GOOD'),
      5_000,
    );
    await page.getByRole('button', { name: 'Talk to a person' }).click();
    await page.getByText(noticeText(handoffNotices.humanRequested('ada@example.com'))).waitFor();
    expect((await conversation(conversationId)).status).toBe('HUMAN_REQUESTED');
    // The live stream (its `authorization` header asks a preflight) brings a member's reply.
    await apiCall(parley, member.accessToken, 'POST', `/conversations/${conversationId}/messages`, { text: 'Checking your order now.' });
    await page.getByText('Checking your order now.').waitFor({ timeout: 5_000 });

    // After a reload the history is read back, and the stream resumes after the last event seen (`last-event-id`).
    await page.reload();
    await page.getByRole('button', { name: 'Open the chat' }).click();
    await page.getByText('When do parcels ship?').waitFor();
    await page.getByText('Checking your order now.').waitFor();
    await apiCall(parley, member.accessToken, 'POST', `/conversations/${conversationId}/messages`, { text: 'It left this morning.' });
    await page.getByText('It left this morning.').waitFor({ timeout: 5_000 });

    // The hosted widget's keyless calls answer this page as well.
    const messageId = (await conversation(conversationId)).messages.find((m) => m.from === 'agent')?.id ?? '';
    const statuses = await page.evaluate(
      async ({ parleyUrl, agent, conversationId, visitorToken, messageId }) => {
        const scope = globalThis as unknown as Probe;
        const headers = { authorization: `Bearer ${visitorToken}`, 'content-type': 'application/json' };
        return [
          (await scope.fetch(`${parleyUrl}/agents/${agent}`, {})).status,
          (await scope.fetch(`${parleyUrl}/conversations/${conversationId}`, { headers })).status,
          (await scope.fetch(`${parleyUrl}/conversations/eval-answer`, { method: 'POST', headers, body: JSON.stringify({ messageId, eval: 'BAD' }) }))
            .status,
        ];
      },
      { parleyUrl: parley.url, agent, conversationId, visitorToken, messageId },
    );
    expect(statuses).toEqual([200, 200, 200]);
    expect(problems).toEqual([]);

    // A preflight gets the methods its path answers without a key: the widget's PUT, not PATCH /agents/{id}.
    const preflight = (method: string, path: string) =>
      fetch(`${parley.url}${path}`, {
        method: 'OPTIONS',
        headers: { origin: site.url, 'access-control-request-method': method, 'access-control-request-headers': 'authorization,content-type' },
      });
    const put = await preflight('PUT', `/agents/${agent}/conversation/contact`);
    expect(put.headers.get('access-control-allow-origin')).toBe(site.url);
    expect(put.headers.get('access-control-allow-methods')).toContain('PUT');
    expect(put.headers.get('access-control-allow-headers')).toBe('authorization, content-type, last-event-id');
    expect((await preflight('PATCH', `/agents/${agent}`)).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('says it could not store the details when the server refuses them, keeps the form to send again, and never thanks', async () => {
    const leadForm = { mode: 'after-first-answer', name: 'off', email: 'required', phone: 'off' };
    const agent = await newAgent({ allowedOrigins: [site.url], widget: { leadForm } });
    const { page } = await openPage({ agent });
    await page.getByRole('button', { name: 'Open the chat' }).click();
    await askAndWait(page, 'Do you ship abroad?', ['Yes.']);
    // The site is no longer allowed: the contact call is refused (403, or no CORS headers once the cached origins expire).
    await apiCall(parley, workspace.key, 'PATCH', `/agents/${agent}`, { allowedOrigins: ['https://www.example.com'] });
    await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill('lin@example.com');
    await page.getByRole('button', { name: 'Send details' }).click();
    await page.getByText('We could not save your details. Please try again.').waitFor({ timeout: 10_000 });
    expect(await page.getByText('Thank you, we have your details.').count()).toBe(0);
    await expect(page.getByRole('textbox', { name: 'E-mail', exact: true }).inputValue()).resolves.toBe('lin@example.com');
  });

  it('does not start on a page whose origin the agent does not allow: no CORS headers, and a 403 when it calls anyway', async () => {
    const agent = await newAgent({ allowedOrigins: ['https://shop.example.com'] });
    const { page, problems } = await openPage({ agent });
    await until(
      () => problems,
      (seen) => seen.some((line) => /CORS policy/.test(line)),
      10_000,
    );
    expect(await page.locator('parley-chat').count()).toBe(0);
    const preflight = await fetch(`${parley.url}/agents/${agent}/conversation/contact`, {
      method: 'OPTIONS',
      headers: { origin: site.url, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const refused = await fetch(`${parley.url}/agents/${agent}/widget`, { headers: { origin: site.url } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('on a phone: every button is a 40 px touch target with a name of its own, and the host page keeps its one banner', async () => {
    const leadForm = { mode: 'before-first-question', name: 'optional', email: 'optional', phone: 'off' };
    const agent = await newAgent({ widget: { leadForm, suggestedQuestions: ['Do you ship abroad?'] } });
    const { page, problems } = await openPage({ agent });
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Open the chat' }).click();
    await page.getByRole('button', { name: 'Send details' }).waitFor();
    // The bubble, now closing the panel, and the panel's own close button say which they are.
    expect(await page.getByRole('button', { name: 'Close the chat' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Hide the chat' }).count()).toBe(1);
    expect(await page.getByRole('banner').count()).toBe(1);
    expect(await page.getByRole('banner').getByText('Shop home').count()).toBe(1);
    await expect(smallButtons(page)).resolves.toEqual([]);
    await screenshots(page, 'widget-lead-phone', { fullPage: false, viewports: [PHONE] });
    await page.setViewportSize(PHONE);

    await page.getByRole('button', { name: 'Not now' }).click();
    await askAndWait(page, 'Do you ship abroad?', ['Yes, we do.']);
    await page.getByRole('button', { name: 'Helpful', exact: true }).waitFor();
    await expect(smallButtons(page)).resolves.toEqual([]);
    expect(problems).toEqual([]);
  });

  it('renders inline inside the page’s element', async () => {
    const { page, problems } = await openPage({ agent: agentId, mode: 'inline' });
    await page.locator('#help parley-chat').waitFor();
    await page.getByRole('region', { name: 'Shop helper' }).waitFor();
    expect(await page.getByRole('button', { name: 'Open the chat' }).count()).toBe(0);
    expect(problems).toEqual([]);
  });
});

describe('GET /widget.js', () => {
  let parley: TestParley;
  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(STORE_KINDS[0] ?? 'sqlite');
  });

  it('is a script other sites may load, cached by ETag, for a year with a version', async () => {
    const first = await fetch(`${parley.url}/widget.js`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(first.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(first.headers.get('cache-control')).toBe('public, max-age=300');
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await fetch(`${parley.url}/widget.js`, { headers: { 'if-none-match': etag ?? '' } });
    expect(again.status).toBe(304);
    const versioned = await fetch(`${parley.url}/widget.js?v=0.1.0`);
    expect(versioned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const body = await versioned.arrayBuffer();
    const { gzipSync } = await import('node:zlib');
    expect(gzipSync(Buffer.from(body)).length).toBeLessThan(25 * 1024);
  });
});
