import { createServer } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChannelError, UnverifiedDeliveryError, type OutgoingChannelMessage } from '../../../src/channels/connector.js';
import { SlackConnector } from '../../../src/channels/slack/slack-connector.js';
import { loadConfig } from '../../../src/config.js';
import { OutboundPolicy } from '../../../src/net/address-policy.js';
import { guardedFetch } from '../../../src/net/guarded-fetch.js';
import { FAKE_SLACK_BOT_TOKEN, FAKE_SLACK_SIGNING_SECRET, FakeSlackApi } from '../../support/fake-slack-api.js';
import { closeServer, listenOnLoopback } from '../../support/loopback-server.js';

let fake: FakeSlackApi;
const guarded = (allow: string) =>
  new SlackConnector({ fetch: guardedFetch(new OutboundPolicy(loadConfig({ PARLEY_OUTBOUND_ALLOW: allow }).outbound)) });
const connector = guarded('loopback');
const signal = () => AbortSignal.timeout(20_000);

const connection = (overrides: { botToken?: string; apiBaseUrl?: string } = {}) => ({
  id: 'conn_1',
  config: { apiBaseUrl: overrides.apiBaseUrl ?? fake.url },
  secrets: { botToken: overrides.botToken ?? FAKE_SLACK_BOT_TOKEN, signingSecret: FAKE_SLACK_SIGNING_SECRET },
  inboundUrl: 'https://parley.example/channels/conn_1/inbound',
});

const outgoing = (text: string, channelExternalId = 'C0SUPPORT:1700000000.000100'): OutgoingChannelMessage => ({
  id: 'msg_1',
  conversationId: 'conv_1',
  automatic: true,
  channelExternalId,
  text,
  title: 'Hours',
  thread: [],
  lastInboundAt: null,
  notice: null,
  to: null,
});

/** A request as Slack signs it, handed to the connector as the inbound route would. */
const signedDelivery = (payload: Record<string, unknown> | URLSearchParams, timestamp = Math.floor(Date.now() / 1000)) => {
  const form = payload instanceof URLSearchParams;
  const body = form ? payload.toString() : JSON.stringify(payload);
  return {
    headers: {
      'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': fake.sign(body, timestamp),
    },
    body: Buffer.from(body),
  };
};

async function expectChannelError(promise: Promise<unknown>, retryable: boolean): Promise<ChannelError> {
  const error: unknown = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ChannelError);
  expect((error as ChannelError).retryable).toBe(retryable);
  expect((error as ChannelError).message).not.toContain(FAKE_SLACK_BOT_TOKEN);
  return error as ChannelError;
}

beforeEach(async () => {
  fake = new FakeSlackApi();
  await fake.start();
});
afterEach(async () => {
  await fake.close();
});

describe('check', () => {
  it('asks auth.test who the bot is, through the given fetch', async () => {
    expect(await connector.check(connection(), signal())).toEqual({
      ok: true,
      message: 'Connected to Parley Test Workspace as @parley',
      details: { botUsername: 'parley', botUserId: 'U0BOT00001', team: 'Parley Test Workspace', teamId: 'T0FAKE0001' },
    });
    expect(fake.calls.map((call) => call.method)).toEqual(['auth.test']);
  });

  it('says the token was refused, without the token', async () => {
    const result = await connector.check(connection({ botToken: 'xoxb-revoked-token-0000' }), signal());
    expect(result).toEqual({ ok: false, message: 'Slack refused the bot token (invalid_auth)' });
    expect((await connector.check(connection({ botToken: 'xoxp-a-user-token' }), signal())).message).toMatch(/xoxb-/);
  });

  it('refuses for good a Web API base the outbound policy does not allow, calling nothing', async () => {
    const publicOnly = guarded('public');
    expect((await publicOnly.check(connection(), signal())).message).toMatch(/outbound policy does not allow connecting to 127\.0\.0\.1:\d+/);
    await expectChannelError(publicOnly.send(connection(), outgoing('hi'), signal()), false);
    expect(fake.calls).toEqual([]);
  });

  it('says where Slack could not be reached', async () => {
    const server = createServer();
    const dead = `${await listenOnLoopback(server)}/api/`;
    await closeServer(server);
    expect((await connector.check(connection({ apiBaseUrl: dead }), signal())).message).toMatch(
      /could not be reached at 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
    );
  });
});

describe('send', () => {
  it('posts mrkdwn into the thread of the question, and answers the posted message’s id', async () => {
    const sent = await connector.send(connection(), outgoing('We open at **9 am**, see [hours](https://shop.example/h?a=1&b=2).'), signal());
    expect(fake.posted).toEqual([
      {
        channel: 'C0SUPPORT',
        threadTs: '1700000000.000100',
        text: 'We open at *9 am*, see <https://shop.example/h?a=1&amp;b=2|hours>.',
        ts: expect.stringMatching(/^\d+\.\d{6}$/),
      },
    ]);
    expect(sent).toEqual({ channelMessageId: `C0SUPPORT:${fake.posted[0]!.ts}` });
  });

  it('posts at the top of a direct conversation, and splits a long answer', async () => {
    await connector.send(connection(), outgoing(`${'A sentence of the answer. '.repeat(200)}\n\n${'Another one. '.repeat(200)}`, 'D0ADA'), signal());
    expect(fake.posted.length).toBe(2);
    for (const posted of fake.posted) {
      expect(posted).toMatchObject({ channel: 'D0ADA', threadTs: undefined });
      expect(posted.text.length).toBeLessThanOrEqual(4000);
    }
  });

  it('waits out a short rate limit once; a long one is a failure the job queue retries later', async () => {
    fake.failNext('chat.postMessage', { status: 429, retryAfter: 1 });
    const started = Date.now();
    await connector.send(connection(), outgoing('Hello'), signal());
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(fake.posted).toHaveLength(1);
    expect(fake.calls.filter((call) => call.method === 'chat.postMessage')).toHaveLength(2);

    fake.failNext('chat.postMessage', { status: 429, retryAfter: 30 });
    const error = await expectChannelError(connector.send(connection(), outgoing('Hello again'), signal()), true);
    expect(error.message).toMatch(/slow down for 30 s/);
    expect(fake.posted).toHaveLength(1);
  });

  it('says what Slack refused: a channel the bot is not in, a missing scope, an unknown thread', async () => {
    fake.closedChannels.add('C0SUPPORT');
    expect((await expectChannelError(connector.send(connection(), outgoing('Hi'), signal()), false)).message).toMatch(
      /not in that channel.*\/invite/,
    );
    fake.closedChannels.clear();
    fake.failNext('chat.postMessage', { error: 'missing_scope', needed: 'chat:write' });
    expect((await expectChannelError(connector.send(connection(), outgoing('Hi'), signal()), false)).message).toMatch(/chat:write scope/);
    fake.failNext('chat.postMessage', { error: 'internal_error' });
    await expectChannelError(connector.send(connection(), outgoing('Hi'), signal()), true);
    await expectChannelError(connector.send(connection(), outgoing('Hi', 'not a thread'), signal()), false);
    await expectChannelError(connector.send(connection(), outgoing('  '), signal()), false);
  });
});

describe('receive', () => {
  it('verifies before reading: unsigned, wrongly signed and stale requests are refused', async () => {
    const good = signedDelivery(fake.eventCallback({ type: 'app_mention', user: 'U0ADA00001', text: 'hi', ts: '1.1', channel: 'C0X' }));
    await expect(connector.receive(connection(), { ...good, headers: { ...good.headers, 'x-slack-signature': undefined } })).rejects.toThrow(
      UnverifiedDeliveryError,
    );
    await expect(connector.receive(connection(), { ...good, body: Buffer.from(`${good.body.toString()} `) })).rejects.toThrow(
      UnverifiedDeliveryError,
    );
    const stale = signedDelivery({ type: 'url_verification', challenge: 'c' }, Math.floor(Date.now() / 1000) - 600);
    await expect(connector.receive(connection(), stale)).rejects.toThrow(UnverifiedDeliveryError);
    expect(fake.calls).toEqual([]);
  });

  it('answers url_verification with the challenge', async () => {
    const received = await connector.receive(connection(), signedDelivery({ token: 't', type: 'url_verification', challenge: 'ch4ll3nge' }));
    expect(received).toEqual({ messages: [], reply: { contentType: 'application/json; charset=utf-8', body: '{"challenge":"ch4ll3nge"}' } });
  });

  it('reads a mention, with the person’s name looked up once', async () => {
    const event = { type: 'app_mention', user: 'U0ADA00001', text: '<@U0BOT00001> When do you open?', ts: '1700000000.000100', channel: 'C0SUPPORT' };
    const received = await connector.receive(connection(), signedDelivery(fake.eventCallback(event)));
    expect(received.reply).toBeUndefined();
    expect(received.messages).toMatchObject([
      {
        channelExternalId: 'C0SUPPORT:1700000000.000100',
        text: 'When do you open?',
        from: { externalId: 'U0ADA00001', displayName: 'Ada', username: 'ada' },
      },
    ]);
    await connector.receive(connection(), signedDelivery(fake.eventCallback({ ...event, ts: '1700000000.000200' })));
    expect(fake.calls.filter((call) => call.method === 'users.info')).toHaveLength(1);
  });

  it('keeps the user id when the name cannot be looked up', async () => {
    fake.failNext('users.info', { error: 'missing_scope', needed: 'users:read' });
    // A connector of its own: names looked up by another test are remembered.
    const received = await guarded('loopback').receive(
      connection(),
      signedDelivery(fake.eventCallback({ type: 'message', channel_type: 'im', user: 'U0ADA00001', text: 'hi', ts: '1.2', channel: 'D0ADA' })),
    );
    expect(received.messages[0]?.from).toEqual({ externalId: 'U0ADA00001' });
  });

  it('acknowledges a slash command at once, privately, and takes its text as the question', async () => {
    const received = await connector.receive(connection(), signedDelivery(fake.slashCommand('C0SUPPORT', 'When do you open?')));
    expect(received.reply).toEqual({ contentType: 'application/json; charset=utf-8', body: '{"response_type":"ephemeral","text":"Thinking…"}' });
    expect(received.messages).toMatchObject([{ channelExternalId: 'C0SUPPORT', text: 'When do you open?', from: { displayName: 'ada' } }]);
    const empty = await connector.receive(connection(), signedDelivery(fake.slashCommand('C0SUPPORT', '')));
    expect(empty.messages).toEqual([]);
    expect(JSON.parse(empty.reply!.body)).toMatchObject({ response_type: 'ephemeral', text: expect.stringContaining('/ask When') });
  });
});
