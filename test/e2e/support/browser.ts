import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * The few browser globals the tests use inside `page.evaluate` callbacks: the tests compile without the DOM
 * library (they run in Node), so the page's side is described here, as far as it is used. The callbacks
 * run in the page, where no import reaches: each casts `globalThis` to this itself.
 */
export interface PageGlobals {
  document: { activeElement: { textContent: string | null; id: string } | null };
  scrollTo(x: number, y: number): void;
  axe: { run(context: unknown, options: { resultTypes: string[] }): Promise<{ violations: AxeViolation[] }> };
  DataTransfer: new () => { items: { add(file: unknown): void } };
  File: new (parts: string[], name: string, options: { type: string }) => unknown;
}

const require = createRequire(import.meta.url);
const AXE_SCRIPT = require.resolve('axe-core/axe.min.js');
let axe: Promise<string> | undefined;
const axeSource = () => (axe ??= fs.readFile(AXE_SCRIPT, 'utf8'));
export const SCREENSHOTS = path.resolve(import.meta.dirname, '../../../test-output/screenshots');

/** Debian's Chromium, headless, with nothing of its own going to the network. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 740 };

/**
 * A browser context on the dashboard's origin; every request that leaves loopback fails the test (the
 * dashboard loads nothing from elsewhere), and every page error or refused CSP line is collected.
 *
 * While any route is set, Playwright answers every CORS preflight itself, allowing all: a test of calls
 * across origins passes `realPreflights`, and then a request outside loopback is only reported, not
 * stopped (the page's own CSP must keep it from leaving).
 */
export async function openContext(
  browser: Browser,
  baseURL: string,
  { realPreflights = false }: { realPreflights?: boolean } = {},
): Promise<{ context: BrowserContext; problems: string[] }> {
  const context = await browser.newContext({ baseURL, viewport: DESKTOP });
  const problems: string[] = [];
  const outside = (url: URL) => url.hostname !== '127.0.0.1';
  if (realPreflights) {
    context.on('request', (request) => {
      if (outside(new URL(request.url()))) problems.push(`request outside the server: ${request.url()}`);
    });
  } else {
    await context.route(outside, (route) => {
      problems.push(`request outside the server: ${route.request().url()}`);
      return route.abort();
    });
  }
  context.on('page', (page) => watch(page, problems));
  return { context, problems };
}

/**
 * Console errors that are not problems: API answers the page handles and shows (a 400 naming fields, a 401
 * before signing in, a 403 for a member, a 404 for an unknown link, the 409 of the last key).
 */
const EXPECTED_CONSOLE_ERRORS = [/Failed to load resource: the server responded with a status of (400|401|403|404|409)/];

function watch(page: Page, problems: string[]): void {
  page.on('pageerror', (error) => problems.push(`page error: ${error.stack ?? error.message}`));
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() !== 'error' || EXPECTED_CONSOLE_ERRORS.some((expected) => expected.test(text))) return;
    problems.push(`console error: ${text.slice(0, 600)}`);
  });
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** Runs axe-core in the page and answers its serious and critical violations, described for a reader. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const loaded = await page.evaluate(() => 'axe' in globalThis);
  // page.addScriptTag would add an inline <script>, which the dashboard's CSP refuses (as it should);
  // evaluating the source through the DevTools protocol is not subject to it.
  if (!loaded) await page.evaluate(await axeSource());
  const violations = await page.evaluate(async () => {
    // In the page: the browser's globals, untyped here (the tests compile without the DOM library).
    const scope = globalThis as unknown as PageGlobals;
    const result = await scope.axe.run(scope.document, { resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.map(({ target, failureSummary }) => ({ target: target.map(String), failureSummary })),
    }));
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) => `${violation.impact} ${violation.id} (${violation.help}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

export type Theme = 'light' | 'dark';

/**
 * Screenshots of the page as it is, in light and dark, at 1280 px and 375 px, as
 * test-output/screenshots/<name>-<theme>-<width>.png; the page is left light at 1280 px.
 */
export async function screenshots(
  page: Page,
  name: string,
  { fullPage = true, viewports = [DESKTOP, PHONE] }: { fullPage?: boolean; viewports?: readonly (typeof DESKTOP)[] } = {},
): Promise<void> {
  await fs.mkdir(SCREENSHOTS, { recursive: true });
  for (const viewport of viewports) {
    await page.setViewportSize(viewport);
    // From the top, so sticky bars sit where a reader expects them in a full-page picture.
    await page.evaluate(() => (globalThis as unknown as PageGlobals).scrollTo(0, 0));
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
      await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${colorScheme}-${viewport.width}.png`), fullPage, animations: 'disabled' });
    }
  }
  await page.setViewportSize(DESKTOP);
  await page.emulateMedia({ colorScheme: 'light' });
}
