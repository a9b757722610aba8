import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { resolveNames } from '../support/resolve-names.js';
import { until } from '../support/until.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { detailFields, type CreatedWebhookBody, type DeliveryBody, type ErrorBody } from '../support/bodies.js';

describe('webhook destinations on private networks', () => {
  let parley: TestParley;
  let ws: Workspace;
  let receiver: WebhookReceiver;

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley('sqlite', { workers: true, env: { PARLEY_OUTBOUND_ALLOW: 'public', PARLEY_DELIVERY_MAX_ATTEMPTS: '3' } });
    ws = await parley.newWorkspace();
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
  });
  afterEach(() => vi.restoreAllMocks());

  const create = <T = CreatedWebhookBody>(url: string) =>
    parley.call<T>('POST', '/webhooks', { key: ws.key, body: { url, events: ['message.created'] } });

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

  // Each spelling WHATWG's URL parser leaves as it is, or turns into an address the guard used to let through.
  it.each([
    ['http://[::7f00:1]/hook', '::7f00:1 is 127.0.0.1 in IPv6 form, a loopback address'],
    ['http://[::127.0.0.1]/hook', '::7f00:1 is 127.0.0.1 in IPv6 form, a loopback address'],
    ['http://[::ffff:7f00:1]/hook', '::ffff:7f00:1 is 127.0.0.1 in IPv6 form, a loopback address'],
    ['http://[64:ff9b::a00:1]/hook', '64:ff9b::a00:1 is 10.0.0.1 in IPv6 form, a private address'],
    ['http://[2002:a9fe:a9fe::]/latest/meta-data', '2002:a9fe:a9fe:: is 169.254.169.254 in IPv6 form, a link-local address'],
    ['http://localhost./hook', 'localhost is this machine'],
    ['http://hooks.localhost./hook', 'hooks.localhost is this machine'],
    ['http://2130706433/hook', '127.0.0.1 is a loopback address'],
    ['http://0x7f.1/hook', '127.0.0.1 is a loopback address'],
    ['http://0.0.0.0:8080/hook', '0.0.0.0 is an unspecified address'],
    ['http://[fd00::1]/hook', 'fd00::1 is a private (unique-local) address'],
    ['http://100.64.0.1/hook', '100.64.0.1 is a carrier-grade NAT address'],
  ])('refuses %s with a message that says what the address is', async (url, what) => {
    const refused = await create<ErrorBody>(url);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error: 'INVALID_REQUEST',
      message: `Webhook URL refused: ${what}, which PARLEY_OUTBOUND_ALLOW=public does not allow`,
    });
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
    const { conversation } = await conversations.intake.start(ws.id, { agentId: null, channel: 'api' });
    await conversations.messages.add(ws.id, conversation.id, { from: 'human', text: 'hello' });

    const [delivery] = await until(
      async () => (await parley.call<DeliveryBody[]>('GET', `/webhooks/${created.body.id}/deliveries`, { key: ws.key })).body,
      (list) => list[0]?.status === 'failed',
    );
    expect(delivery!.status).toBe('failed');
    // Refused for good on the first attempt: retrying cannot make the address public.
    expect(delivery!.attemptCount).toBe(1);
    expect(delivery!.lastError).toMatch(/rebind\.example\.com resolves to 127\.0\.0\.1, a loopback address/);
    expect(receiver.received).toEqual([]);
  });
});
