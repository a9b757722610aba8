import { createServer } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChannelError, UnverifiedDeliveryError, type OutgoingChannelMessage } from '../../../src/channels/connector.js';
import { CrispConnector, HANDOVER_NOTE } from '../../../src/channels/crisp/crisp-connector.js';
import { crispHookSignature } from '../../../src/channels/crisp/crisp-hook-verification.js';
import { loadConfig } from '../../../src/config.js';
import { OutboundPolicy } from '../../../src/net/address-policy.js';
import { guardedFetch } from '../../../src/net/guarded-fetch.js';
import { FAKE_CRISP_IDENTIFIER, FAKE_CRISP_KEY, FAKE_CRISP_WEBSITE_ID, FakeCrispApi, visitorMessageHook } from '../../support/fake-crisp-api.js';
import { closeServer, listenOnLoopback } from '../../support/loopback-server.js';

const SESSION = 'session_36ba3566-9651-4790-afc8-ffedbccc317f';
const URL_KEY = 'hook-key_0123456789abcdef';
const SIGNING_SECRET = 'plugin-signing-secret';

let fake: FakeCrispApi;
const guarded = (allow: string) =>
  new CrispConnector({ fetch: guardedFetch(new OutboundPolicy(loadConfig({ PARLEY_OUTBOUND_ALLOW: allow }).outbound)) });
const connector = guarded('loopback');
const signal = () => AbortSignal.timeout(20_000);

const connection = (overrides: { key?: string; apiBaseUrl?: string; websiteId?: string; signingSecret?: string } = {}) => ({
  id: 'conn_1',
  config: {
    websiteId: overrides.websiteId ?? FAKE_CRISP_WEBSITE_ID,
    identifier: FAKE_CRISP_IDENTIFIER,
    apiBaseUrl: overrides.apiBaseUrl ?? fake.url,
  },
  secrets: {
    key: overrides.key ?? FAKE_CRISP_KEY,
    secretToken: URL_KEY,
    ...(overrides.signingSecret === undefined ? {} : { signingSecret: overrides.signingSecret }),
  },
  inboundUrl: `https://parley.example/channels/conn_1/inbound?key=${URL_KEY}`,
});

const outgoing = (text: string, notice: string | null = null): OutgoingChannelMessage => ({
  id: 'msg_1',
  conversationId: 'conv_1',
  automatic: true,
  channelExternalId: SESSION,
  text,
  title: 'Order',
  thread: [],
  lastInboundAt: null,
  notice,
  to: null,
});

async function expectChannelError(promise: Promise<unknown>, retryable: boolean): Promise<ChannelError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ChannelError);
  expect((error as ChannelError).retryable).toBe(retryable);
  expect((error as ChannelError).message).not.toContain(FAKE_CRISP_KEY);
  return error as ChannelError;
}

beforeEach(async () => {
  fake = new FakeCrispApi();
  await fake.start();
});
afterEach(async () => {
  await fake.close();
});

describe('check', () => {
  it('reads the website with the plugin token (Basic identifier:key, X-Crisp-Tier: plugin) and names it', async () => {
    expect(await connector.check(connection(), signal())).toEqual({
      ok: true,
      message: 'Connected to the Crisp website Shop Support',
      details: { websiteName: 'Shop Support', websiteId: FAKE_CRISP_WEBSITE_ID },
    });
    expect(fake.calls).toEqual([
      {
        method: 'GET',
        path: `/v1/website/${FAKE_CRISP_WEBSITE_ID}`,
        body: null,
        basic: `${FAKE_CRISP_IDENTIFIER}:${FAKE_CRISP_KEY}`,
        tier: 'plugin',
      },
    ]);
  });

  it('says what is wrong without throwing: a refused token, an unknown website, Crisp unreachable or refused by the outbound policy', async () => {
    expect(await connector.check(connection({ key: 'wrong' }), signal())).toEqual({
      ok: false,
      message: 'Crisp refused the plugin token (identifier and key)',
    });
    expect((await connector.check(connection({ websiteId: 'b0b0b0b0' }), signal())).message).toMatch(/does not know the website/);
    const dead = createServer();
    const deadUrl = await listenOnLoopback(dead);
    await closeServer(dead);
    expect((await connector.check(connection({ apiBaseUrl: `${deadUrl}/v1` }), signal())).message).toMatch(
      /could not be reached at 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
    );
    expect((await guarded('').check(connection(), signal())).message).toMatch(/outbound policy does not allow connecting to 127\.0\.0\.1/);
  });
});

describe('send', () => {
  it('posts an operator’s text message in the conversation, and answers Crisp’s fingerprint', async () => {
    expect(await connector.send(connection(), outgoing('The shop opens at 9 am.'), signal())).toEqual({ channelMessageId: '524000000000000' });
    expect(fake.calls).toEqual([
      {
        method: 'POST',
        path: `/v1/website/${FAKE_CRISP_WEBSITE_ID}/conversation/${SESSION}/message`,
        body: { type: 'text', from: 'operator', origin: 'chat', content: 'The shop opens at 9 am.' },
        basic: `${FAKE_CRISP_IDENTIFIER}:${FAKE_CRISP_KEY}`,
        tier: 'plugin',
      },
    ]);
  });

  it('hands a conversation where a person was asked for to Crisp’s operators: a private note, the conversation unresolved, then the notice', async () => {
    const sent = await connector.send(connection(), outgoing('A person will answer here soon.', 'humanRequested'), signal());
    expect(sent).toMatchObject({ handedOver: true });
    expect(fake.posted.map(({ type, from, content }) => ({ type, from, content }))).toEqual([
      { type: 'note', from: 'operator', content: HANDOVER_NOTE },
      { type: 'text', from: 'operator', content: 'A person will answer here soon.' },
    ]);
    expect(fake.states).toEqual([{ sessionId: SESSION, state: 'unresolved' }]);
  });

  it('gives up on a refused token; tries again after Crisp’s rate limit or its own failure', async () => {
    expect((await expectChannelError(connector.send(connection({ key: 'wrong' }), outgoing('hi'), signal()), false)).message).toMatch(
      /refused the plugin token/,
    );
    fake.failNext(403);
    expect((await expectChannelError(connector.send(connection(), outgoing('hi'), signal()), false)).message).toMatch(
      /does not let the plugin token/,
    );
    fake.failNext(429);
    expect((await expectChannelError(connector.send(connection(), outgoing('hi'), signal()), true)).message).toMatch(/slow down/);
    fake.failNext(503);
    expect((await expectChannelError(connector.send(connection(), outgoing('hi'), signal()), true)).message).toMatch(
      /failed to send the message \(503\)/,
    );
    await expectChannelError(connector.send(connection(), { ...outgoing('hi'), channelExternalId: '../../website' }, signal()), false);
    await expectChannelError(connector.send(connection(), outgoing('   '), signal()), false);
    expect(fake.posted).toEqual([]);
  });
});

describe('receive', () => {
  const deliver = (hook: object, options: { key?: string | null; signingSecret?: string; timestamp?: number } = {}) => {
    const body = JSON.stringify(hook);
    const timestamp = String(options.timestamp ?? Date.now());
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-crisp-request-timestamp': timestamp };
    if (options.signingSecret !== undefined) headers['x-crisp-signature'] = crispHookSignature(options.signingSecret, timestamp, body);
    const key = options.key === undefined ? URL_KEY : options.key;
    return { headers, body: Buffer.from(body), ...(key === null ? {} : { query: { key } }) };
  };

  it('takes a Website Hook with the URL’s key, and a Plugin Hook signed with the plugin’s secret', () => {
    const hook = visitorMessageHook(SESSION, 'When do you open?', { fingerprint: 7 });
    expect(connector.receive(connection(), deliver(hook)).messages).toMatchObject([
      { channelExternalId: SESSION, channelMessageId: '7', text: 'When do you open?' },
    ]);
    const signed = connection({ signingSecret: SIGNING_SECRET });
    expect(connector.receive(signed, deliver(hook, { signingSecret: SIGNING_SECRET })).messages).toHaveLength(1);
  });

  it('refuses a hook without the key or with another, and, with a signing secret, an unsigned, wrongly signed or expired one', () => {
    const hook = visitorMessageHook(SESSION, 'planted');
    expect(() => connector.receive(connection(), deliver(hook, { key: null }))).toThrow(UnverifiedDeliveryError);
    expect(() => connector.receive(connection(), deliver(hook, { key: 'wrong' }))).toThrow(UnverifiedDeliveryError);
    const signed = connection({ signingSecret: SIGNING_SECRET });
    expect(() => connector.receive(signed, deliver(hook))).toThrow(UnverifiedDeliveryError);
    expect(() => connector.receive(signed, deliver(hook, { signingSecret: 'another' }))).toThrow(UnverifiedDeliveryError);
    expect(() => connector.receive(signed, deliver(hook, { signingSecret: SIGNING_SECRET, timestamp: Date.now() - 10 * 60_000 }))).toThrow(
      UnverifiedDeliveryError,
    );
  });

  it('has nothing to answer in junk or in an operator’s message', () => {
    expect(connector.receive(connection(), { headers: {}, body: Buffer.from('not json'), query: { key: URL_KEY } }).messages).toEqual([]);
    const operator = visitorMessageHook(SESSION, 'Hello from the team');
    expect(connector.receive(connection(), deliver({ ...operator, data: { ...operator.data, from: 'operator' } })).messages).toEqual([]);
  });
});
