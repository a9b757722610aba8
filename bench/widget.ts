import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import buildDashboard from '../test/e2e/support/build-dashboard.js';
import { launchBrowser, openContext } from '../test/e2e/support/browser.js';
import { apiCall, uploadFile } from '../test/e2e/support/seed.js';
import { closeServer, listenOnLoopback } from '../test/support/loopback-server.js';
import { startTestParley } from '../test/support/parley.js';
import type { StoreKind } from '../test/support/stores.js';
import { figure, goal, ratio, type Figure, type Goal } from './figures.js';
import { summarizeLatencies, type LatencySummary } from './latency.js';

const WIDGET = path.resolve(import.meta.dirname, '../dist/web/widget.js');
/** The widget's size budget: the whole widget, one file, gzipped. */
const GZIP_GOAL_BYTES = 25 * 1024;
const QUESTION = 'What do ducks eat?';

export interface WidgetResult {
  store: StoreKind;
  loads: Figure;
  size: { raw: Figure; gzip: Figure };
  /** From the script tag (a mark just before it) to the frame that draws the bubble; a fresh browser context each time. */
  scriptToBubble: LatencySummary;
  /** Built-in model: Enter in the widget → the first words of the answer in the frame that draws them. */
  enterToFirstToken: LatencySummary;
  /** The same question, same server, from Node with fetch: POST → the first `event: answer` frame. */
  fetchToFirstAnswerEvent: LatencySummary;
  firstTokenOverFetch: Figure;
  goals: Goal[];
}

/** What the bench reads from the page (compiled without the DOM library). */
interface Marks {
  scriptAt?: number;
  bubbleAt?: number;
  enterAt?: number;
  tokenAt?: number;
}

/**
 * The customer's page, on a loopback origin of its own: a mark just before the script tag, and an observer
 * that notes the frame in which the widget's element is drawn (the bubble is in it from the start).
 */
function sitePage(parleyUrl: string, agentId: string): string {
  const watch =
    'window.scriptAt=performance.now();new MutationObserver(function(_,o){if(document.querySelector("parley-chat")){o.disconnect();' +
    'requestAnimationFrame(function(){window.bubbleAt=performance.now()})}}).observe(document.body,{childList:true})';
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body><h1>Our shop</h1>' +
    `<script>${watch}</script><script src="${parleyUrl}/widget.js" data-agent-id="${agentId}" async></script></body></html>`
  );
}

/** Marks Enter in the widget's text area, and the frame that first shows words of the answer under it. */
function armFirstToken(page: Page): Promise<void> {
  return page.evaluate(() => {
    const scope = globalThis as unknown as Marks & {
      document: { querySelector(s: string): { shadowRoot: ShadowLike } | null };
      requestAnimationFrame(callback: () => void): void;
      performance: { now(): number };
      MutationObserver: new (callback: (records: unknown, observer: { disconnect(): void }) => void) => {
        observe(target: unknown, options: object): void;
      };
    };
    interface NodeLike {
      textContent: string | null;
      className: string;
      querySelector(s: string): NodeLike | null;
      addEventListener(name: string, listener: (event: { key: string }) => void, capture: boolean): void;
    }
    interface ShadowLike {
      querySelector(s: string): NodeLike | null;
      querySelectorAll(s: string): ArrayLike<NodeLike>;
    }
    const shadow = scope.document.querySelector('parley-chat')?.shadowRoot;
    const log = shadow?.querySelector('.log');
    if (!shadow || !log) throw new Error('no widget on the page');
    shadow.querySelector('textarea')?.addEventListener(
      'keydown',
      (event) => {
        if (event.key === 'Enter') scope.enterAt = scope.performance.now();
      },
      true,
    );
    new scope.MutationObserver((_, observer) => {
      const messages = shadow.querySelectorAll('.log .msg');
      const last = messages[messages.length - 1];
      const body = last?.querySelector('div');
      // The answer's line shows "Writing…" (in a `.who`) until its first words replace it.
      if (scope.enterAt === undefined || !last || last.className.includes('mine') || !body || body.querySelector('.who') || !body.textContent?.trim())
        return;
      observer.disconnect();
      scope.requestAnimationFrame(() => {
        scope.tokenAt = scope.performance.now();
      });
    }).observe(log, { childList: true, subtree: true, characterData: true });
  });
}

const marks = (page: Page): Promise<Marks> => page.evaluate(() => ({ ...(globalThis as unknown as Marks) }));

/** POST a public agent's query from Node, streamed: milliseconds to the first answer frame. */
async function fetchFirstAnswer(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: QUESTION, streaming: true }),
  });
  if (!response.ok || response.body === null) throw new Error(`POST ${url}: ${response.status}`);
  const decoder = new TextDecoder();
  let seen = '';
  let first = Number.NaN;
  for await (const chunk of response.body) {
    seen += decoder.decode(chunk as Uint8Array, { stream: true });
    if (Number.isNaN(first) && seen.includes('event: answer')) first = performance.now() - started;
  }
  return first;
}

async function measureLoad(browser: Browser, siteUrl: string): Promise<{ bubble: number; firstToken: number }> {
  const { context } = await openContext(browser, siteUrl);
  try {
    const page = await context.newPage();
    await page.goto('/');
    await page.waitForFunction(() => (globalThis as unknown as Marks).bubbleAt !== undefined);
    const loaded = await marks(page);
    await page.getByRole('button', { name: 'Open the chat' }).click();
    const input = page.getByRole('textbox', { name: 'Write your question…' });
    await input.fill(QUESTION);
    await armFirstToken(page);
    await input.press('Enter');
    await page.waitForFunction(() => (globalThis as unknown as Marks).tokenAt !== undefined);
    const asked = await marks(page);
    return { bubble: (loaded.bubbleAt ?? NaN) - (loaded.scriptAt ?? NaN), firstToken: (asked.tokenAt ?? NaN) - (asked.enterAt ?? NaN) };
  } finally {
    await context.close();
  }
}

/**
 * The chat widget: its weight, the time from its script tag to the bubble on a customer's page (another
 * loopback origin, Chromium, cold cache), and the time from Enter to the first words of an answer of the
 * built-in model on screen beside the same question's first SSE frame to a plain fetch, in the same run.
 */
export async function runWidgetBench(options: { store: StoreKind; loads: number }): Promise<WidgetResult> {
  buildDashboard();
  const script = await fs.readFile(WIDGET);
  const gzip = gzipSync(script).length;
  const parley = await startTestParley(options.store, {
    workers: true,
    // Every page and question comes from one address: the public rate limits would time themselves.
    env: { PARLEY_RATE_LIMIT_IP_PER_MINUTE: '1000000', PARLEY_RATE_LIMIT_VISITOR_PER_MINUTE: '1000000' },
  });
  const browser = await launchBrowser();
  let agentId = '';
  const site = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(sitePage(parley.url, agentId));
  });
  try {
    const workspace = await parley.newWorkspace('Bench workspace');
    const datastore = await apiCall(parley, workspace.key, 'POST', '/datastores', { name: 'Help centre' });
    await uploadFile(parley, workspace.key, datastore.id, 'html-wikipedia-duck.html');
    // (The tests' `settled` waits with Vitest, which the bench does not run under.)
    for (let waited = 0; ; waited += 200) {
      const sources = await apiCall<{ status: string }[]>(parley, workspace.key, 'GET', `/datastores/${datastore.id}/datasources`);
      if (sources.every((source) => !['unsynched', 'pending', 'running'].includes(source.status))) break;
      if (waited > 90_000) throw new Error('the bench datasource did not sync in 90 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    agentId = (
      await apiCall(parley, workspace.key, 'POST', '/agents', {
        name: 'Duck helper',
        visibility: 'public',
        tools: [{ type: 'datastore', datastoreId: datastore.id }],
      })
    ).id;
    const siteUrl = await listenOnLoopback(site);
    const queryUrl = `${parley.url}/agents/${agentId}/query`;

    // Warm-up: the embedder, the model, the browser.
    await fetchFirstAnswer(queryUrl);
    await measureLoad(browser, siteUrl);
    const bubble: number[] = [];
    const firstToken: number[] = [];
    const fetched: number[] = [];
    // Interleaved, so a slow patch of the shared machine weighs on both columns alike.
    for (let load = 0; load < options.loads; load++) {
      fetched.push(await fetchFirstAnswer(queryUrl));
      const measured = await measureLoad(browser, siteUrl);
      bubble.push(measured.bubble);
      firstToken.push(measured.firstToken);
    }
    const enterToFirstToken = summarizeLatencies(firstToken);
    const fetchToFirstAnswerEvent = summarizeLatencies(fetched);
    return {
      store: options.store,
      loads: figure(options.loads, 'count'),
      size: { raw: figure(script.length / 1024, 'KiB'), gzip: figure(gzip / 1024, 'KiB') },
      scriptToBubble: summarizeLatencies(bubble),
      enterToFirstToken,
      fetchToFirstAnswerEvent,
      firstTokenOverFetch: ratio(enterToFirstToken.p50.value, fetchToFirstAnswerEvent.p50.value),
      goals: [goal(`widget.js ≤ ${GZIP_GOAL_BYTES / 1024} KiB gzipped`, gzip <= GZIP_GOAL_BYTES)],
    };
  } finally {
    await closeServer(site).catch(() => undefined);
    await browser.close();
    await parley.close();
  }
}
