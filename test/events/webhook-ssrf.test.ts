import dns from 'node:dns';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestParley, type TestParley, type Workspace } from '../support/parley.js';
import { until } from '../support/until.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { detailFields, type CreatedWebhookBody, type DeliveryBody, type ErrorBody } from '../support/bodies.js';

type LookupAnswer = { address: string; family: number }[];

/**
 * The system resolver, answering chosen names as a DNS server would (the machine has no DNS of its own):
 * both the promise API (checked when an endpoint is saved) and the callback API (used for each request).
 */
function resolveNames(answers: Record<string, LookupAnswer>) {
  const promiseLookup = dns.promises.lookup.bind(dns.promises);
  vi.spyOn(dns.promises, 'lookup').mockImplementation(((hostname: string, options: dns.LookupAllOptions) =>
    answers[hostname] ? Promise.resolve(answers[hostname]) : promiseLookup(hostname, options)) as typeof dns.promises.lookup);
  const callbackLookup = dns.lookup.bind(dns);
  vi.spyOn(dns, 'lookup').mockImplementation(((hostname: string, options: object, callback: (...args: unknown[]) => void) => {
    const answer = answers[hostname];
    if (answer === undefined) return callbackLookup(hostname, options as dns.LookupAllOptions, callback as never);
    process.nextTick(() => callback(null, answer));
  }) as typeof dns.lookup);
}

describe('webhook destinations on private networks', () => {
  let parley: TestParley;
  let ws: Workspace;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    parley = await startTestParley('sqlite', { workers: true, env: { PARLEY_ALLOW_PRIVATE_URLS: '0', PARLEY_DELIVERY_MAX_ATTEMPTS: '3' } });
    ws = await parley.newWorkspace();
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await parley?.close();
    await receiver?.close();
  });
  afterEach(() => vi.restoreAllMocks());

  const create = <T = CreatedWebhookBody>(url: string) => parley.call<T>('POST', '/webhooks', { key: ws.key, body: { url, events: ['message.created'] } });

  it('refuses loopback, link-local (cloud metadata), private and IPv6 loopback addresses', async () => {
    for (const url of [
      'http://127.0.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://10.0.0.8/hook',
      'http://192.168.1.10:8080/hook',
      'http://[::ffff:127.0.0.1]/',
      'http://localhost:3000/hook',
      receiver.url,
    ]) {
      const refused = await create<ErrorBody>(url);
      expect(refused.status, url).toBe(400);
      expect(refused.body.error).toBe('INVALID_REQUEST');
      expect(detailFields(refused.body)[0]).toBe('body.url');
    }
    expect((await parley.call('GET', '/webhooks', { key: ws.key })).body).toEqual([]);
  });

  it('refuses a host name that resolves to a private address', async () => {
    resolveNames({ 'intranet.example.com': [{ address: '10.20.30.40', family: 4 }] });
    const refused = await create<ErrorBody>('https://intranet.example.com/hook');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/10\.20\.30\.40/);
  });

  it('refuses the URL again when it is changed to a private one', async () => {
    resolveNames({ 'hooks.example.com': [{ address: '93.184.216.34', family: 4 }] });
    const created = await create('https://hooks.example.com/hook');
    expect(created.status).toBe(200);
    const patched = await parley.call('PATCH', `/webhooks/${created.body.id}`, { key: ws.key, body: { url: 'http://169.254.169.254/' } });
    expect(patched.status).toBe(400);
    await parley.call('DELETE', `/webhooks/${created.body.id}`, { key: ws.key });
  });

  it('checks the address actually connected to: a name that later resolves to a private address gets nothing', async () => {
    resolveNames({ 'rebind.example.com': [{ address: '93.184.216.34', family: 4 }] });
    const port = new URL(receiver.url).port;
    const created = await create(`http://rebind.example.com:${port}/hook`);
    expect(created.status).toBe(200);
    vi.restoreAllMocks();
    resolveNames({ 'rebind.example.com': [{ address: '127.0.0.1', family: 4 }] });

    const conversations = parley.core.services.conversations;
    const { conversation } = await conversations.ensureConversation(ws.id, { agentId: null, channel: 'api' });
    await conversations.addMessage(ws.id, conversation.id, { from: 'human', text: 'hello' });

    const [delivery] = await until(
      async () => (await parley.call<DeliveryBody[]>('GET', `/webhooks/${created.body.id}/deliveries`, { key: ws.key })).body,
      (list) => list[0]?.status === 'failed',
    );
    expect(delivery!.status).toBe('failed');
    // Refused for good on the first attempt: retrying cannot make the address public.
    expect(delivery!.attemptCount).toBe(1);
    expect(delivery!.lastError).toMatch(/private|reserved/);
    expect(receiver.received).toEqual([]);
  });
});
