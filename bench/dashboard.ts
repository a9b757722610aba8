import fs from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import buildDashboard from '../test/e2e/support/build-dashboard.js';
import { launchBrowser, openContext } from '../test/e2e/support/browser.js';
import { useSession } from '../test/e2e/support/dashboard.js';
import { startTestParley, type TestParley } from '../test/support/parley.js';
import type { StoreKind } from '../test/support/stores.js';
import { figure, goal, ratio, type Figure, type Goal } from './figures.js';
import { summarizeLatencies, timed, type LatencySummary } from './latency.js';

const DIST = path.resolve(import.meta.dirname, '../dist/web/dashboard');
/** The dashboard's own goal: what a first page sends before it renders, gzipped. */
const FIRST_PAGE_GOAL_BYTES = 150 * 1024;
/** Navigation to the first screen's data on screen, p50, on loopback (issue 33). */
const FIRST_SCREEN_GOAL_MS = 250;

const INBOX_QUESTIONS = ['Do you ship to Norway?', 'Can I return a jacket after three weeks?', 'Is the rain cover waterproof?'];

export interface DashboardResult {
  store: StoreKind;
  loads: Figure;
  /** JS and CSS a first visit downloads before the page shows, gzipped. */
  firstPageGzip: { signIn: Figure; agents: Figure };
  /** A page of the same server with nothing to run: the floor of any navigation here. */
  blankPage: LatencySummary;
  /** From navigation to the agents list on screen, signed in, a fresh browser context each time (cold cache). */
  agentsList: LatencySummary;
  agentsOverBlank: Figure;
  /** From navigation to the inbox's conversation list on screen, the same way. */
  inboxList: LatencySummary;
  inboxOverBlank: Figure;
  goals: Goal[];
}

/** The JS and CSS files a page loads until `ready`, gzipped and summed. */
async function firstPageBytes(page: Page, url: string, ready: () => Promise<void>): Promise<number> {
  const assets = new Set<string>();
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (/\.(js|css)$/.test(pathname)) assets.add(pathname.replace('/dashboard/', ''));
  });
  await page.goto(url);
  await ready();
  const sizes = await Promise.all([...assets].map(async (asset) => gzipSync(await fs.readFile(path.join(DIST, asset))).length));
  return sizes.reduce((sum, size) => sum + size, 0);
}

async function signedInPage(browser: Browser, parley: TestParley, sessionSecret: string): Promise<{ page: Page; close: () => Promise<void> }> {
  const { context } = await openContext(browser, parley.url);
  await useSession(context, parley.url, sessionSecret);
  return { page: await context.newPage(), close: () => context.close() };
}

/**
 * The dashboard in Chromium on loopback: the weight of its first pages, and the time from navigation to the
 * agents list on screen beside the time to load a blank page from the same server, in the same run.
 */
export async function runDashboardBench(options: { store: StoreKind; loads: number }): Promise<DashboardResult> {
  buildDashboard();
  const parley = await startTestParley(options.store);
  const browser = await launchBrowser();
  try {
    const workspace = await parley.newWorkspace('Bench workspace');
    const agentIds: string[] = [];
    for (const name of ['Support bot', 'Sales assistant', 'Internal helper']) {
      const created = await parley.call<{ id: string }>('POST', '/agents', {
        key: workspace.key,
        body: { name, description: `${name} for the bench`, visibility: 'public' },
      });
      agentIds.push(created.body.id);
    }
    // Visitors' questions, so the inbox has conversations to list (the built-in model answers).
    for (const [index, question] of INBOX_QUESTIONS.entries()) {
      await parley.call('POST', `/agents/${agentIds[index % agentIds.length]!}/query`, { key: null, body: { query: question } });
    }
    const owner = await parley.newMember(workspace.id, 'owner');

    const agentsReady = (page: Page) => page.getByRole('link', { name: 'Support bot' }).waitFor();
    const inboxReady = (page: Page) =>
      page
        .getByRole('list', { name: 'Conversations' })
        .getByRole('link', { name: new RegExp(INBOX_QUESTIONS[0]!.slice(0, 20)) })
        .waitFor();
    const signedIn = await signedInPage(browser, parley, owner.sessionSecret);
    const agents = await firstPageBytes(signedIn.page, `${parley.url}/dashboard/agents`, () => agentsReady(signedIn.page));
    await signedIn.close();
    const anonymous = await openContext(browser, parley.url);
    const page = await anonymous.context.newPage();
    const signIn = await firstPageBytes(page, `${parley.url}/dashboard/sign-in`, () => page.getByRole('heading', { name: 'Sign in' }).waitFor());
    await anonymous.context.close();

    const blank: number[] = [];
    const list: number[] = [];
    const inbox: number[] = [];
    const timedLoad = async (path: string, ready: (page: Page) => Promise<void>): Promise<number> => {
      const fresh = await signedInPage(browser, parley, owner.sessionSecret);
      const { millis } = await timed(async () => {
        await fresh.page.goto(`${parley.url}${path}`);
        await ready(fresh.page);
      });
      await fresh.close();
      return millis;
    };
    // Interleaved, so a slow patch of the shared machine weighs on both columns alike.
    for (let load = 0; load < options.loads; load++) {
      const plain = await signedInPage(browser, parley, owner.sessionSecret);
      blank.push((await timed(() => plain.page.goto(`${parley.url}/healthz`, { waitUntil: 'load' }))).millis);
      await plain.close();
      list.push(await timedLoad('/dashboard/agents', agentsReady));
      inbox.push(await timedLoad('/dashboard/inbox', inboxReady));
    }
    const blankPage = summarizeLatencies(blank);
    const agentsList = summarizeLatencies(list);
    const inboxList = summarizeLatencies(inbox);
    return {
      store: options.store,
      loads: figure(options.loads, 'count'),
      firstPageGzip: { signIn: figure(signIn / 1024, 'KiB'), agents: figure(agents / 1024, 'KiB') },
      blankPage,
      agentsList,
      agentsOverBlank: ratio(agentsList.p50.value, blankPage.p50.value),
      inboxList,
      inboxOverBlank: ratio(inboxList.p50.value, blankPage.p50.value),
      goals: [
        goal(`first page JS + CSS ≤ ${FIRST_PAGE_GOAL_BYTES / 1024} KiB gzipped`, Math.max(signIn, agents) <= FIRST_PAGE_GOAL_BYTES),
        goal(`agents list on screen ≤ ${FIRST_SCREEN_GOAL_MS} ms p50 after navigation`, agentsList.p50.value <= FIRST_SCREEN_GOAL_MS),
        goal(`inbox list on screen ≤ ${FIRST_SCREEN_GOAL_MS} ms p50 after navigation`, inboxList.p50.value <= FIRST_SCREEN_GOAL_MS),
      ],
    };
  } finally {
    await browser.close();
    await parley.close();
  }
}
