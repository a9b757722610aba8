import fs from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { parleyTest } from '../support/parley-test.js';
import { FakeOpenAIChatServer, GREETING } from '../support/fake-openai-chat-server.js';
import type { SignedInMember, TestParley, Workspace } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import { SCREENSHOTS, launchBrowser, openContext, screenshots, seriousViolations } from './support/browser.js';
import { useSession } from './support/dashboard.js';
import { apiCall } from './support/seed.js';

const PROVIDER_KEY = 'sk-e2e-0123456789-dashboardkey-W4ll';

/**
 * The Models page in Chromium: an owner adds a provider pointing at a loopback
 * OpenAI-compatible server, tests it, maps llm_a to its model; an agent on llm_a answers through it in the
 * playground, which says which model answered; the key never comes back in any response the page reads.
 */
let browser: Browser;
let parley: TestParley;
let fake: FakeOpenAIChatServer;
let baseUrl: string;
let workspace: Workspace;
let owner: SignedInMember;
let page: Page;
let problems: string[];
const bodies: string[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  fake = new FakeOpenAIChatServer({ defaultReply: GREETING });
  fake.apiKey = PROVIDER_KEY;
  baseUrl = await fake.start();
});
afterAll(async () => {
  await browser?.close();
  await fake?.stop();
});

parleyTest.beforeAll(async ({ startParley }) => {
  parley = await startParley(STORE_KINDS[0]!);
  workspace = await parley.newWorkspace('Acme support');
  owner = await parley.newMember(workspace.id, 'owner');
  const opened = await openContext(browser, parley.url);
  problems = opened.problems;
  await useSession(opened.context, parley.url, owner.sessionSecret);
  page = await opened.context.newPage();
  page.on('response', (response) => {
    if (response.headers()['content-type']?.includes('json') || response.headers()['content-type']?.includes('event-stream')) {
      void response.text().then(
        (text) => bodies.push(text),
        () => undefined,
      );
    }
  });
});

async function shoot(name: string): Promise<void> {
  await screenshots(page, name);
  const shots = '/work/wt/shots/models';
  await fs.mkdir(shots, { recursive: true });
  for (const file of (await fs.readdir(SCREENSHOTS)).filter((each) => each.startsWith(`${name}-`))) {
    await fs.copyFile(path.join(SCREENSHOTS, file), path.join(shots, file));
  }
}

parleyTest('an owner connects a provider, tests it, maps a name, and the playground answers through it', async () => {
  await page.goto(`${parley.url}/dashboard/settings/models`);
  await page.getByRole('heading', { name: 'No model providers yet' }).waitFor();
  await expect.poll(() => page.getByRole('list', { name: 'Model names' }).innerText()).toContain('the built-in offline model');
  await shoot('models-empty');

  await page.getByRole('button', { name: 'Add provider' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add a model provider' });
  await dialog.getByLabel('Kind').selectOption('openai-compatible');
  await dialog.getByLabel('Name').fill('Our vLLM');
  await dialog.getByLabel('Base URL').fill(baseUrl);
  await dialog.getByLabel('API key').fill(PROVIDER_KEY);
  await dialog.getByRole('button', { name: 'Add provider' }).click();
  await dialog.waitFor({ state: 'detached' });
  const card = page.getByRole('list', { name: 'Model providers' }).getByRole('listitem');
  await expect.poll(() => card.innerText()).toContain('sk-…W4ll');

  await page.getByRole('button', { name: 'Test Our vLLM' }).click();
  await expect.poll(() => page.getByRole('status').first().innerText()).toMatch(/Works: 1 model listed/);
  expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${PROVIDER_KEY}`);

  const route = page.getByRole('form', { name: 'Model for llm_a' });
  await route.getByLabel('Provider', { exact: true }).selectOption({ label: 'Our vLLM' });
  await route.getByLabel('Provider’s model id').fill('fake-chat');
  await route.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => page.getByRole('list', { name: 'Model names' }).innerText()).toContain('fake-chat on Our vLLM');
  await shoot('models-with-provider');
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await seriousViolations(page), colorScheme).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // The agent form says in words what each model is and what it ignores.
  await page.goto(`${parley.url}/dashboard/agents/new`);
  const model = page.getByLabel('Model', { exact: true });
  await model.selectOption('llm_b_mini');
  await expect
    .poll(() => page.locator('.model-about').innerText())
    .toMatch(/picks the sentences of your documents.*system prompt and the temperature change nothing/s);
  await model.selectOption('llm_a');
  await expect.poll(() => page.locator('.model-about').innerText()).toMatch(/answered by fake-chat on Our vLLM\. It writes answers/);
  await shoot('models-agent-form');

  const agent = await apiCall(parley, workspace.key, 'POST', '/agents', { name: 'Routed agent', modelName: 'llm_a' });
  await page.goto(`${parley.url}/dashboard/agents/${agent.id}?tab=playground`);
  await page.getByLabel('Your question').fill('Who answers here?');
  await page.getByRole('button', { name: 'Send' }).click();
  // The first question starts the embedding model, which takes a while on a busy machine.
  await expect.poll(() => page.getByRole('log', { name: 'Conversation' }).innerText(), { timeout: 90_000 }).toContain('Hello from the fake server.');
  await expect.poll(() => page.locator('.answered-by').innerText()).toBe('Answered by llm_a: fake-chat on Our vLLM');
  await shoot('models-playground');
  const chat = fake.requests.at(-1)!;
  expect(chat).toMatchObject({ url: '/v1/chat/completions', body: { model: 'fake-chat' } });
  expect(chat.headers.authorization).toBe(`Bearer ${PROVIDER_KEY}`);

  expect(bodies.length).toBeGreaterThan(5);
  expect(bodies.join('\n')).not.toContain(PROVIDER_KEY);
  expect(problems).toEqual([]);
});
