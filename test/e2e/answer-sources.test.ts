import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { parseContextBlock } from '../../src/llm/prompt/context-block.js';
import { FakeOpenAIChatServer } from '../support/fake-openai-chat-server.js';
import { parleyTest } from '../support/parley-test.js';
import type { SignedInMember, TestParley, Workspace } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import { SHOP_HELP_PASSAGES as DOCUMENTS } from '../support/shop-help-passages.js';
import { launchBrowser, openContext, screenshots } from './support/browser.js';
import { useSession } from './support/dashboard.js';
import { apiCall, settled } from './support/seed.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The playground shows the answer as stored, its [n] matching the n-th source of the list under it. */
describe.each(STORE_KINDS.slice(0, 1))('an answer’s sources in the playground on %s', (kind) => {
  const upstream = new FakeOpenAIChatServer();
  let parley: TestParley;
  let workspace: Workspace;
  let owner: SignedInMember;
  let agentId: string;

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind, { workers: true, env: await upstream.startAsRemoteModel() });
    workspace = await parley.newWorkspace('Shop');
    owner = await parley.newMember(workspace.id, 'owner');
    const datastore = await apiCall<{ id: string }>(parley, workspace.key, 'POST', '/datastores', { name: 'Help centre' });
    for (const [name, text] of Object.entries(DOCUMENTS)) {
      await apiCall(parley, workspace.key, 'POST', '/datasources', { type: 'text', datastoreId: datastore.id, name, text });
    }
    await settled(parley, workspace.key, datastore.id);
    agentId = (
      await apiCall<{ id: string }>(parley, workspace.key, 'POST', '/agents', {
        name: 'Shop helper',
        modelName: 'remote',
        tools: [{ type: 'datastore', datastoreId: datastore.id }],
      })
    ).id;
  }, 180_000);
  afterAll(() => upstream.stop());

  parleyTest('shows the one passage the model cited as source [1], the text saying [1], and no “Sources:” line', async () => {
    const { context, problems } = await openContext(browser, parley.url);
    await useSession(context, parley.url, owner.sessionSecret);
    const page = await context.newPage();
    await page.goto(`/dashboard/agents/${agentId}?tab=playground`);
    // The model cites the second of four passages in two places, and writes its own list anyway.
    upstream.replies.push({
      kind: 'answer',
      deltas: ['We ship to the United Kingdom [', '2]; delivery takes three to five working days [2].', '\n\nSources: Ducks.txt; Novel.txt'],
      delayMs: 50,
    });
    await page.getByLabel('Your question').fill('Do you ship to the United Kingdom, and how long does delivery take?');
    await page.getByRole('button', { name: 'Send' }).click();

    const log = page.getByRole('log', { name: 'Conversation' });
    await log.getByText('1 source', { exact: true }).waitFor();
    const passages = parseContextBlock(String(upstream.requests.at(-1)?.body.messages.at(-1)?.content))?.passages ?? [];
    expect(passages).toHaveLength(4);
    await log.getByText('We ship to the United Kingdom [1]; delivery takes three to five working days [1].', { exact: true }).waitFor();
    await expect(log.getByText(/Sources:/).count()).resolves.toBe(0);
    const items = log.getByRole('listitem');
    await expect(items.count()).resolves.toBe(1);
    await expect(items.first().textContent()).resolves.toMatch(new RegExp(`^\\[1\\]${passages[1]!.source.replace('.', '\\.')}`));
    await screenshots(page, 'sources-playground');
    expect(problems).toEqual([]);
    await context.close();
  });
});
