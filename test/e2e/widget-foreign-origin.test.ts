import http from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeOpenAIChatServer } from '../support/fake-openai-chat-server.js';
import { closeServer, listenOnLoopback } from '../support/loopback-server.js';
import { parleyTest } from '../support/parley-test.js';
import type { SignedInMember, TestParley, Workspace } from '../support/parley.js';
import { until } from '../support/until.js';
import { DESKTOP, PHONE, launchBrowser, openContext, screenshots } from './support/browser.js';
import { apiCall } from './support/seed.js';

/**
 * The chat widget on a page of another origin than Parley's, with the browser's own CORS checks: no
 * Playwright route is set, since Playwright answers every preflight itself while one is (that is how the
 * lead form's PUT passed the other widget tests while real browsers refused it).
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A customer's site: one page embedding the widget of `?agent=`, with a CSP allowing Parley only. */
function customerSite(parleyUrl: () => string): http.Server {
  return http.createServer((request, response) => {
    const agent = new URL(request.url ?? '/', 'http://site').searchParams.get('agent') ?? '';
    const parley = parleyUrl();
    response
      .writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': `default-src 'none'; script-src ${parley}; connect-src ${parley}; style-src 'none'; img-src 'none'`,
      })
      .end(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
          `<title>Shop</title></head><body><h1>Our shop</h1><script src="${parley}/widget.js" data-agent-id="${agent}" async></script></body></html>`,
      );
  });
}

interface Stored {
  status: string;
  messages: { id: string; from: string; eval: string | null }[];
  participantsContacts: { email: string | null; firstName: string | null }[];
}

interface PageScope {
  localStorage: { getItem(key: string): string | null };
  fetch(url: string, init: { method?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number }>;
}

describe('the chat widget on another origin’s page', () => {
  const upstream = new FakeOpenAIChatServer();
  let parley: TestParley;
  const site = customerSite(() => parley.url);
  const stranger = customerSite(() => parley.url);
  let siteUrl: string;
  let strangerUrl: string;
  let workspace: Workspace;
  let member: SignedInMember;
  let agentId: string;
  const contexts: BrowserContext[] = [];

  parleyTest.beforeAll(async ({ startParley }) => {
    const baseURL = await upstream.start();
    siteUrl = await listenOnLoopback(site);
    strangerUrl = await listenOnLoopback(stranger);
    parley = await startParley('sqlite', {
      env: { PARLEY_MODELS: JSON.stringify({ remote: { provider: 'openai-compatible', model: 'fake-chat', baseURL } }) },
    });
    workspace = await parley.newWorkspace('Shop');
    member = await parley.newMember(workspace.id);
    agentId = (
      await apiCall(parley, workspace.key, 'POST', '/agents', {
        name: 'Shop helper',
        visibility: 'public',
        modelName: 'remote',
        allowedOrigins: [siteUrl],
        widget: { leadForm: { mode: 'after-first-answer', name: 'optional', email: 'required', phone: 'off' } },
      })
    ).id;
  }, 180_000);

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await closeServer(site);
    await closeServer(stranger);
    await upstream.stop();
  });

  async function openPage(url: string, agent = agentId): Promise<{ page: Page; problems: string[] }> {
    const { context, problems } = await openContext(browser, url, { realPreflights: true });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`/?agent=${agent}`);
    return { page, problems };
  }

  const stored = (id: string) => apiCall<Stored>(parley, workspace.key, 'GET', `/conversations/${id}`);

  it('makes every widget call from the page: question, stream, lead form, rating, person request, history, live stream', async () => {
    expect(new URL(siteUrl).origin).not.toBe(new URL(parley.url).origin);
    const { page, problems } = await openPage(siteUrl);
    await page.getByRole('button', { name: 'Open the chat' }).click();
    upstream.replies.push({ kind: 'answer', deltas: ['Parcels ship ', 'within two days.'], delayMs: 100 });
    const input = page.getByRole('textbox', { name: 'Write your question…' });
    await input.fill('When do parcels ship?');
    await input.press('Enter');
    await page.getByText('within two days.').waitFor();
    const state = JSON.parse((await page.evaluate((key) => (globalThis as unknown as PageScope).localStorage.getItem(key), `parley:${agentId}`)) ?? '{}') as {
      conversationId: string;
      visitorToken: string;
    };
    expect(state.conversationId).toBeTruthy();

    // The lead form: thanked only once stored, and stored as the conversation's contact.
    await page.getByRole('textbox', { name: 'Name (optional)' }).fill('Ada');
    await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill('ada@example.com');
    await screenshots(page, 'widget-foreign-lead', { fullPage: false, viewports: [DESKTOP, PHONE] });
    await page.getByRole('button', { name: 'Send details' }).click();
    await page.getByText('Thank you, we have your details.').waitFor();
    expect((await stored(state.conversationId)).participantsContacts[0]).toMatchObject({ firstName: 'Ada', email: 'ada@example.com' });

    await page.getByRole('button', { name: 'Helpful', exact: true }).click();
    await until(() => stored(state.conversationId), (c) => c.messages.some((m) => m.from === 'agent' && m.eval === 'GOOD'), 5_000);

    await page.getByRole('button', { name: 'Talk to a person' }).click();
    await page.getByText('A person will answer here shortly.').waitFor();
    expect((await stored(state.conversationId)).status).toBe('HUMAN_REQUESTED');

    // The live stream (its `authorization` header asks a preflight) brings a member's reply.
    await apiCall(parley, member.accessToken, 'POST', `/conversations/${state.conversationId}/messages`, { text: 'Checking your order now.' });
    await page.getByText('Checking your order now.').waitFor({ timeout: 5_000 });

    // After a reload the history is read back, and the stream resumes after the last event seen (`last-event-id`).
    await page.reload();
    await page.getByRole('button', { name: 'Open the chat' }).click();
    await page.getByText('When do parcels ship?').waitFor();
    await page.getByText('Checking your order now.').waitFor();
    await apiCall(parley, member.accessToken, 'POST', `/conversations/${state.conversationId}/messages`, { text: 'It left this morning.' });
    await page.getByText('It left this morning.').waitFor({ timeout: 5_000 });

    // The hosted widget's keyless calls answer this page as well.
    const answerId = (await stored(state.conversationId)).messages.find((m) => m.from === 'agent')?.id ?? '';
    const statuses = await page.evaluate(
      async ({ parleyUrl, agent, conversationId, token, messageId }) => {
        const scope = globalThis as unknown as PageScope;
        const bearer = { authorization: `Bearer ${token}` };
        const json = { ...bearer, 'content-type': 'application/json' };
        return [
          (await scope.fetch(`${parleyUrl}/agents/${agent}`, {})).status,
          (await scope.fetch(`${parleyUrl}/conversations/${conversationId}`, { headers: bearer })).status,
          (await scope.fetch(`${parleyUrl}/conversations/eval-answer`, { method: 'POST', headers: json, body: JSON.stringify({ messageId, eval: 'BAD' }) })).status,
        ];
      },
      { parleyUrl: parley.url, agent: agentId, conversationId: state.conversationId, token: state.visitorToken, messageId: answerId },
    );
    expect(statuses).toEqual([200, 200, 200]);
    expect(problems).toEqual([]);
  });

  it('says it could not store the details when the server refuses them, keeps the form to send again, and never thanks', async () => {
    const leadForm = { mode: 'after-first-answer', name: 'off', email: 'required', phone: 'off' };
    const agent = (await apiCall(parley, workspace.key, 'POST', '/agents', { name: 'Helper', visibility: 'public', modelName: 'remote', allowedOrigins: [siteUrl], widget: { leadForm } })).id;
    const { page } = await openPage(siteUrl, agent);
    await page.getByRole('button', { name: 'Open the chat' }).click();
    upstream.replies.push({ kind: 'answer', deltas: ['Yes.'] });
    const input = page.getByRole('textbox', { name: 'Write your question…' });
    await input.fill('Do you ship abroad?');
    await input.press('Enter');
    await page.getByText('Yes.').waitFor();
    // The site is no longer allowed: the contact call is refused (403, or no CORS headers once the cache of origins expires).
    await apiCall(parley, workspace.key, 'PATCH', `/agents/${agent}`, { allowedOrigins: ['https://www.example.com'] });
    await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill('lin@example.com');
    await page.getByRole('button', { name: 'Send details' }).click();
    await page.getByText('We could not save your details. Please try again.').waitFor({ timeout: 10_000 });
    expect(await page.getByText('Thank you, we have your details.').count()).toBe(0);
    await expect(page.getByRole('textbox', { name: 'E-mail', exact: true }).inputValue()).resolves.toBe('lin@example.com');
  });

  it('gives an origin the agent does not allow no CORS headers, and a 403 when it calls anyway', async () => {
    const { page, problems } = await openPage(strangerUrl);
    await until(() => problems, (seen) => seen.some((line) => /CORS policy/.test(line)), 10_000);
    expect(await page.locator('parley-chat').count()).toBe(0);

    const preflight = await fetch(`${parley.url}/agents/${agentId}/conversation/contact`, {
      method: 'OPTIONS',
      headers: { origin: strangerUrl, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const refused = await fetch(`${parley.url}/agents/${agentId}/widget`, { headers: { origin: strangerUrl } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('allows the widget’s PUT to its own origin, but no key route on a public path (PATCH /agents/{id})', async () => {
    const ask = (method: string, path: string) =>
      fetch(`${parley.url}${path}`, {
        method: 'OPTIONS',
        headers: { origin: siteUrl, 'access-control-request-method': method, 'access-control-request-headers': 'authorization,content-type' },
      });
    const put = await ask('PUT', `/agents/${agentId}/conversation/contact`);
    expect(put.headers.get('access-control-allow-origin')).toBe(siteUrl);
    expect(put.headers.get('access-control-allow-methods')).toContain('PUT');
    expect(put.headers.get('access-control-allow-headers')).toBe('authorization, content-type, last-event-id');
    const patch = await ask('PATCH', `/agents/${agentId}`);
    expect(patch.headers.get('access-control-allow-origin')).toBeNull();
  });
});
