import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { parleyTest } from '../support/parley-test.js';
import type { SignedInMember, TestParley, Workspace } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import { launchBrowser, openContext, screenshots, seriousViolations } from './support/browser.js';
import { useSession } from './support/dashboard.js';
import { apiCall } from './support/seed.js';

/** What GET /agents/{id} answers, as far as the widget tab edits it. */
interface AgentWidgetBody {
  id: string;
  visibility: 'public' | 'private';
  allowedOrigins: string[];
  widget: {
    color: string;
    position: string;
    theme: string;
    title: string | null;
    greeting: string;
    initialMessages: string[];
    suggestedQuestions: string[];
    language: string;
    humanHandoff: boolean;
    ratings: boolean;
    hideBranding: boolean;
    leadForm: { mode: string; name: string; email: string; phone: string };
  };
}

/** The page's clipboard and computed styles, untyped here (the tests compile without the DOM library). */
interface PageSide {
  navigator: { clipboard: { readText(): Promise<string> } };
  getComputedStyle(element: unknown): { backgroundColor: string };
  pwned?: string;
}

/** The preview's header colour, as the browser computes it. */
const previewAccent = (page: Page) =>
  page.locator('.widget-preview-header').evaluate((header) => (globalThis as unknown as PageSide).getComputedStyle(header).backgroundColor);

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
  parley = await startParley(STORE_KINDS[0]!);
  workspace = await parley.newWorkspace('Acme support');
  owner = await parley.newMember(workspace.id, 'owner');
});

describe('the agent page’s widget tab', () => {
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let agentId: string;

  beforeAll(async () => {
    ({ context, problems } = await openContext(browser, parley.url));
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: parley.url });
    await useSession(context, parley.url, owner.sessionSecret);
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
  });

  const agent = () => apiCall<AgentWidgetBody>(parley, workspace.key, 'GET', `/agents/${agentId}`);
  const openTab = async () => {
    await page.goto(`/dashboard/agents/${agentId}?tab=widget`);
    await page.getByRole('button', { name: 'Save widget settings' }).waitFor();
  };
  const save = async () => {
    await page.getByRole('button', { name: 'Save widget settings' }).click();
  };

  parleyTest('a private agent: the notice makes it public in one click', async () => {
    agentId = (await apiCall(parley, workspace.key, 'POST', '/agents', { name: 'Support bot', visibility: 'private' })).id;
    await openTab();
    expect(await page.getByRole('tab', { name: 'Widget' }).getAttribute('aria-selected')).toBe('true');
    await page.getByText('This agent is private, so the widget cannot answer.').waitFor();
    await screenshots(page, 'agent-widget-private', { fullPage: false });
    await page.getByRole('button', { name: 'Make the agent public' }).click();
    await page.getByRole('status').getByText('The agent is public').waitFor();
    expect(await page.getByText('This agent is private').count()).toBe(0);
    expect((await agent()).visibility).toBe('public');
    expect(problems).toEqual([]);
  });

  parleyTest('the snippet names the agent and Parley’s address, and copies', async () => {
    await openTab();
    const expected = `<script src="${parley.url}/widget.js" data-agent-id="${agentId}" async></script>`;
    await page.getByText(expected, { exact: true }).waitFor();
    const inline = await page.locator('pre').filter({ hasText: 'data-mode="inline"' }).textContent();
    expect(inline).toContain(`data-agent-id="${agentId}"`);
    expect(inline).toContain('data-target="#help"');

    await page.getByRole('button', { name: 'Copy the snippet', exact: true }).click();
    await page.getByRole('status').getByText('Copied to the clipboard').waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as PageSide).navigator.clipboard.readText())).toBe(expected);
    await page.getByRole('button', { name: 'Copy the inline snippet' }).click();
    expect(await page.evaluate(() => (globalThis as unknown as PageSide).navigator.clipboard.readText())).toBe(inline);
  });

  parleyTest('settings changed, saved and still there after a reload; the preview follows them', async () => {
    await openTab();
    const preview = page.locator('.widget-preview');
    expect(await preview.getAttribute('class')).toContain('widget-preview-right');

    await page.getByLabel('Colour', { exact: true }).fill('#0f766e');
    await page.getByRole('radio', { name: 'Left' }).check();
    await page.getByRole('group', { name: 'Theme' }).getByRole('radio', { name: 'Dark' }).check();
    await page.getByLabel('Title').fill('Ask Acme');
    await page.getByLabel('Greeting').fill('Hello! <img src=x onerror="window.pwned=1"> Ask me anything.');
    await page.getByRole('button', { name: 'Add message' }).click();
    await page.getByLabel('Message 1', { exact: true }).fill('We answer in English and French.');
    await page.getByRole('button', { name: 'Add question' }).click();
    await page.getByLabel('Question 1', { exact: true }).fill('What are your opening hours?');
    await page.getByRole('button', { name: 'Add question' }).click();
    await page.getByLabel('Question 2', { exact: true }).fill('Where is my order?');
    await page.getByRole('button', { name: 'Add question' }).click(); // left blank: dropped on save
    await page.getByLabel('Language').selectOption('fr');
    await page.getByLabel('Rating buttons under answers').uncheck();
    await page.getByRole('radio', { name: 'Before the first question' }).check();
    await page.getByLabel('Phone').selectOption('required');
    await page.getByRole('button', { name: 'Add origin' }).click();
    await page.getByLabel('Origin 1', { exact: true }).fill('https://www.example.com');

    // The sketch changes with the form, before anything is saved.
    expect(await preview.getAttribute('class')).toContain('widget-preview-left');
    expect(await preview.getAttribute('class')).toContain('widget-preview-dark');
    expect(await previewAccent(page)).toBe('rgb(15, 118, 110)');
    await preview.getByText('Ask Acme').waitFor();
    await preview.getByText('Hello! <img src=x onerror="window.pwned=1"> Ask me anything.').waitFor();
    await preview.getByText('What are your opening hours?').waitFor();
    await preview.getByText('Téléphone *').waitFor();
    await screenshots(page, 'agent-widget-editing');

    await save();
    await page.getByRole('status').getByText('Saved.').waitFor();
    const saved = await agent();
    expect(saved.widget).toMatchObject({
      color: '#0f766e',
      position: 'left',
      theme: 'dark',
      title: 'Ask Acme',
      initialMessages: ['We answer in English and French.'],
      suggestedQuestions: ['What are your opening hours?', 'Where is my order?'],
      language: 'fr',
      ratings: false,
      humanHandoff: true,
      leadForm: { mode: 'before-first-question', name: 'optional', email: 'required', phone: 'required' },
    });
    expect(saved.allowedOrigins).toEqual(['https://www.example.com']);

    await page.reload();
    await page.getByRole('button', { name: 'Save widget settings' }).waitFor();
    expect(await page.getByLabel('Colour', { exact: true }).inputValue()).toBe('#0f766e');
    expect(await page.getByRole('radio', { name: 'Left' }).isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: 'Before the first question' }).isChecked()).toBe(true);
    expect(await page.getByLabel('Phone').inputValue()).toBe('required');
    expect(await page.getByLabel('Question 2', { exact: true }).inputValue()).toBe('Where is my order?');
    expect(await page.getByLabel('Question 3', { exact: true }).count()).toBe(0);
    expect(await page.getByLabel('Origin 1', { exact: true }).inputValue()).toBe('https://www.example.com');
    expect(await page.evaluate(() => (globalThis as unknown as PageSide).pwned)).toBeUndefined();
    expect(problems).toEqual([]);
  });

  parleyTest('the API’s refusals show beside their fields', async () => {
    await openTab();
    await page.getByLabel('Colour', { exact: true }).fill('#12zz34');
    await save();
    const colour = page.getByLabel('Colour', { exact: true });
    await page.locator('.field-invalid .field-error').waitFor();
    expect(await colour.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await colour.getAttribute('aria-describedby')) ?? '';
    const message = await page.locator(`[id="${describedBy.split(' ').at(-1)}"]`).textContent();
    expect(message).toMatch(/pattern/);
    // The preview keeps the saved colour meanwhile.
    expect(await previewAccent(page)).toBe('rgb(15, 118, 110)');
    await page.getByRole('alert').getByText('Please check the fields marked below.').waitFor();
    await screenshots(page, 'agent-widget-errors', { fullPage: false });

    await page.getByLabel('Colour', { exact: true }).fill('#0F766E');
    await page.getByRole('button', { name: 'Add origin' }).click();
    await page.getByLabel('Origin 2', { exact: true }).fill('https://shop.example.com/help');
    await save();
    await page.getByText('each entry must be an origin such as https://www.example.com (no path)').waitFor();
    expect((await agent()).allowedOrigins).toEqual(['https://www.example.com']);
    await page.getByRole('button', { name: 'Remove origin 2' }).click();
    await save();
    await page.getByRole('status').getByText('Saved.').waitFor();
    expect((await agent()).widget.color.toLowerCase()).toBe('#0f766e');
    expect(problems).toEqual([]);
  });

  parleyTest('accessible, and pictured at both widths in both schemes', async () => {
    await apiCall(parley, workspace.key, 'PATCH', `/agents/${agentId}`, { widget: { theme: 'auto', position: 'right', color: '#7c3aed' } });
    await openTab();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'agent-widget');
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
    expect(problems).toEqual([]);
  });
});

describe('the agent page’s settings: when a visitor asks for a person', () => {
  parleyTest('keeps the agent quiet by default and saves "keep answering until someone takes over"', async () => {
    const { context, problems } = await openContext(browser, parley.url);
    try {
      await useSession(context, parley.url, owner.sessionSecret);
      const page = await context.newPage();
      const agentId = (await apiCall(parley, workspace.key, 'POST', '/agents', { name: 'Handoff bot', visibility: 'public' })).id;
      await page.goto(`/dashboard/agents/${agentId}`);
      const keepAnswering = page.getByRole('checkbox', { name: 'Keep answering until someone takes over' });
      expect(await keepAnswering.isChecked()).toBe(false);
      await expect(keepAnswering.getAttribute('aria-describedby')).resolves.toBeTruthy();
      await page.getByText('the agent stops answering in that conversation').waitFor();
      await keepAnswering.check();
      await screenshots(page, 'agent-keep-answering');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByRole('status').getByText('Saved.').waitFor();
      const saved = await apiCall<{ keepAnsweringUntilTakenOver: boolean }>(parley, workspace.key, 'GET', `/agents/${agentId}`);
      expect(saved.keepAnsweringUntilTakenOver).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
