import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChannelError, UnverifiedDeliveryError, type InboundChannelMessage, type OutgoingChannelMessage } from '../../../src/channels/connector.js';
import { TelegramConnector, type TelegramSettings } from '../../../src/channels/telegram/telegram-connector.js';
import { FAKE_BOT_TOKEN, FakeTelegramBotApi, parseMarkdownV2 } from '../../support/fake-telegram-bot-api.js';
import { closeServer, listenOnLoopback } from '../../support/loopback-server.js';
import { loadConfig } from '../../../src/config.js';
import { OutboundPolicy } from '../../../src/net/address-policy.js';
import { guardedFetch } from '../../../src/net/guarded-fetch.js';

const SECRET = 'webhook-secret_0123456789abcdef';
const CHAT = '42';

let fake: FakeTelegramBotApi;
let apiBaseUrl: string;
const connector = new TelegramConnector();
const signal = () => AbortSignal.timeout(20_000);

const connection = (overrides: { mode?: TelegramSettings['mode']; botToken?: string; apiBaseUrl?: string; inboundUrl?: string | null } = {}) => ({
  id: 'conn_1',
  config: { mode: overrides.mode ?? 'polling', apiBaseUrl: overrides.apiBaseUrl ?? apiBaseUrl },
  secrets: { botToken: overrides.botToken ?? FAKE_BOT_TOKEN, secretToken: SECRET },
  inboundUrl: overrides.inboundUrl === undefined ? 'https://parley.example/channels/conn_1/inbound' : overrides.inboundUrl,
});

const outgoing = (text: string, chat = CHAT): OutgoingChannelMessage => ({
  id: 'msg_1',
  conversationId: 'conv_1',
  automatic: true,
  channelExternalId: chat,
  text,
  title: 'Order',
  thread: [],
  lastInboundAt: null,
  notice: null,
  to: null,
});

const textUpdate = (text: string, messageId = 1, updateId?: number) => ({
  ...(updateId === undefined ? {} : { update_id: updateId }),
  message: {
    message_id: messageId,
    date: 1_700_000_000,
    chat: { id: Number(CHAT), type: 'private', first_name: 'Alice' },
    from: { id: Number(CHAT), is_bot: false, first_name: 'Alice' },
    text,
  },
});

/** Where nothing listens: a port that was just closed. */
async function deadUrl(): Promise<string> {
  const server = createServer();
  const url = await listenOnLoopback(server);
  await closeServer(server);
  return url;
}

async function expectChannelError(promise: Promise<unknown>, retryable: boolean): Promise<ChannelError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ChannelError);
  const channelError = error as ChannelError;
  expect(channelError.retryable).toBe(retryable);
  expect(channelError.message).not.toContain(FAKE_BOT_TOKEN);
  expect(channelError.message).not.toContain(FAKE_BOT_TOKEN.split(':')[1]);
  expect(JSON.stringify(channelError.cause ?? null)).not.toContain(FAKE_BOT_TOKEN.split(':')[1]);
  return channelError;
}

beforeEach(async () => {
  fake = new FakeTelegramBotApi();
  apiBaseUrl = await fake.start();
  fake.chats.add(CHAT);
});

afterEach(async () => {
  await fake.close();
});

describe('check', () => {
  it('names the bot', async () => {
    expect(await connector.check(connection(), signal())).toEqual({
      ok: true,
      message: 'Connected to @parley_test_bot',
      details: { botUsername: 'parley_test_bot', botId: '123456789' },
    });
  });

  it('says when Telegram refuses the token, without the token', async () => {
    const wrong = '123456789:AAWrongTokenWrongTokenWrongToken';
    const result = await connector.check(connection({ botToken: wrong }), signal());
    expect(result).toEqual({ ok: false, message: 'Telegram refused the bot token' });
  });

  it('says when the token is not a token at all, without calling Telegram', async () => {
    const result = await connector.check(connection({ botToken: 'abc/../../x?y' }), signal());
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/not in the form @BotFather gives/);
    expect(fake.calls).toEqual([]);
  });

  it('says when Telegram cannot be reached, without the token', async () => {
    const url = await deadUrl();
    const result = await connector.check(connection({ apiBaseUrl: url }), signal());
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/could not be reached at 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
    expect(result.message).not.toContain(FAKE_BOT_TOKEN.split(':')[1]);
  });

  it('accepts an API root with a trailing slash', async () => {
    expect((await connector.check(connection({ apiBaseUrl: `${apiBaseUrl}/` }), signal())).ok).toBe(true);
  });
});

describe('activate and deactivate', () => {
  it('sets the webhook with the secret and only messages', async () => {
    await connector.activate(connection({ mode: 'webhook' }), signal());
    expect(fake.webhook).toEqual({ url: 'https://parley.example/channels/conn_1/inbound', secretToken: SECRET, allowedUpdates: ['message'] });
    expect(fake.calls.at(-1)?.params).toMatchObject({ drop_pending_updates: false });
  });

  it('refuses a webhook without a public URL, or on http with Telegram itself', async () => {
    const missing = await expectChannelError(connector.activate(connection({ mode: 'webhook', inboundUrl: null }), signal()), false);
    expect(missing.message).toMatch(/public URL/);
    const http = connection({ mode: 'webhook', inboundUrl: 'http://parley.local/channels/conn_1/inbound', apiBaseUrl: 'https://api.telegram.org' });
    expect((await expectChannelError(connector.activate(http, signal()), false)).message).toMatch(/https/);
    // A local Bot API server (here: the fake) may deliver over http.
    await connector.activate(connection({ mode: 'webhook', inboundUrl: 'http://127.0.0.1:9/inbound' }), signal());
    expect(fake.webhook?.url).toBe('http://127.0.0.1:9/inbound');
  });

  it('removes the webhook for polling, so that getUpdates works', async () => {
    await connector.activate(connection({ mode: 'webhook' }), signal());
    await expectChannelError(connector.poll(connection(), null, 0, signal()), true);
    await connector.activate(connection({ mode: 'polling' }), signal());
    expect(fake.webhook).toBeNull();
    expect(await connector.poll(connection(), null, 0, signal())).toEqual({ messages: [], cursor: null });
  });

  it('fails to activate with a refused token as a non-retryable error', async () => {
    const error = await expectChannelError(connector.activate(connection({ botToken: '1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }), signal()), false);
    expect(error.message).toBe('Telegram refused the bot token');
  });

  it('deactivates best effort', async () => {
    await connector.activate(connection({ mode: 'webhook' }), signal());
    await connector.deactivate(connection({ mode: 'webhook' }), signal());
    expect(fake.webhook).toBeNull();
    await expect(connector.deactivate(connection({ apiBaseUrl: await deadUrl() }), signal())).resolves.toBeUndefined();
  });

  it('pulls only in polling mode', () => {
    expect(connector.pulls(connection({ mode: 'polling' }))).toBe(true);
    expect(connector.pulls(connection({ mode: 'webhook' }))).toBe(false);
  });
});

describe('receive', () => {
  const body = Buffer.from(JSON.stringify({ update_id: 5, ...textUpdate('hello') }));

  it('refuses a delivery without the secret, or with another', () => {
    expect(() => connector.receive(connection(), { headers: {}, body })).toThrow(UnverifiedDeliveryError);
    for (const wrong of ['', 'x', SECRET.slice(0, -1), `${SECRET}x`, SECRET.toUpperCase()]) {
      expect(() => connector.receive(connection(), { headers: { 'x-telegram-bot-api-secret-token': wrong }, body })).toThrow(UnverifiedDeliveryError);
    }
  });

  it('verifies before parsing: junk with a wrong secret is refused, not parsed', () => {
    const junk = Buffer.from('{not json');
    expect(() => connector.receive(connection(), { headers: { 'x-telegram-bot-api-secret-token': 'nope' }, body: junk })).toThrow(
      UnverifiedDeliveryError,
    );
    expect(connector.receive(connection(), { headers: { 'x-telegram-bot-api-secret-token': SECRET }, body: junk })).toEqual({ messages: [] });
  });

  it('accepts the right secret and parses the update', () => {
    const { messages } = connector.receive(connection(), { headers: { 'x-telegram-bot-api-secret-token': [SECRET] }, body });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ channelExternalId: CHAT, channelMessageId: `${CHAT}:1`, text: 'hello' });
    const edit = Buffer.from(JSON.stringify({ update_id: 6, edited_message: textUpdate('hello!').message }));
    expect(connector.receive(connection(), { headers: { 'x-telegram-bot-api-secret-token': SECRET }, body: edit })).toEqual({ messages: [] });
  });

  it('takes what Telegram delivers to the webhook it was given', async () => {
    const received: InboundChannelMessage[] = [];
    const inbound: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        try {
          received.push(...connector.receive(connection(), { headers: req.headers as IncomingHttpHeaders, body: Buffer.concat(chunks) }).messages);
          res.writeHead(200).end();
        } catch (error) {
          res.writeHead(error instanceof UnverifiedDeliveryError ? 401 : 500).end();
        }
      });
    });
    const inboundUrl = `${await listenOnLoopback(inbound)}/channels/conn_1/inbound`;
    try {
      await connector.activate(connection({ mode: 'webhook', inboundUrl }), signal());
      expect(await fake.deliverToWebhook(textUpdate('via webhook', 3))).toBe(200);
      expect(received.map((m) => m.text)).toEqual(['via webhook']);
      // Someone else's webhook registration (another secret) is refused.
      fake.webhook = { url: inboundUrl, secretToken: 'someone-else', allowedUpdates: ['message'] };
      expect(await fake.deliverToWebhook(textUpdate('forged', 4))).toBe(401);
      expect(received).toHaveLength(1);
    } finally {
      await closeServer(inbound);
    }
  });
});

describe('poll', () => {
  it('reads updates in order and confirms them with the next offset', async () => {
    fake.pushUpdate(textUpdate('first', 1, 10));
    fake.pushUpdate(textUpdate('second', 2, 11));
    const first = await connector.poll(connection(), null, 0, signal());
    expect(first.messages.map((m) => m.text)).toEqual(['first', 'second']);
    expect(first.cursor).toBe('12');
    // Until the cursor is used, Telegram keeps them: a crash before storing them loses nothing.
    expect(fake.pendingUpdates).toHaveLength(2);
    const again = await connector.poll(connection(), null, 0, signal());
    expect(again.messages).toHaveLength(2);
    fake.pushUpdate(textUpdate('third', 3));
    const next = await connector.poll(connection(), first.cursor, 0, signal());
    expect(next.messages.map((m) => m.text)).toEqual(['third']);
    expect(next.cursor).toBe('13');
    expect(fake.pendingUpdates.map((u) => u.update_id)).toEqual([12]);
    expect(fake.calls.filter((c) => c.method === 'getUpdates').at(-1)?.params).toMatchObject({
      offset: 12,
      timeout: 0,
      allowed_updates: ['message'],
    });
  });

  it('sorts updates that arrive out of order, and skips what carries no message', async () => {
    fake.pushUpdate(textUpdate('c', 3, 22));
    fake.pushUpdate(textUpdate('a', 1, 20));
    fake.pushUpdate({ update_id: 23, edited_message: textUpdate('edit', 1).message });
    fake.pushUpdate(textUpdate('b', 2, 21));
    const result = await connector.poll(connection(), null, 0, signal());
    expect(result.messages.map((m) => m.text)).toEqual(['a', 'b', 'c']);
    expect(result.cursor).toBe('24');
  });

  it('keeps the cursor when nothing came', async () => {
    expect(await connector.poll(connection(), '77', 0, signal())).toEqual({ messages: [], cursor: '77' });
  });

  it('long-polls: waits for an update and wakes as soon as one comes', async () => {
    const started = Date.now();
    const polling = connector.poll(connection(), null, 10_000, signal());
    await new Promise((resolve) => setTimeout(resolve, 300));
    fake.pushUpdate(textUpdate('woke you', 9));
    const result = await polling;
    expect(result.messages.map((m) => m.text)).toEqual(['woke you']);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(fake.calls.find((c) => c.method === 'getUpdates')?.params).toMatchObject({ timeout: 10 });
  });

  it('returns empty after the wait when nothing comes', async () => {
    const started = Date.now();
    expect(await connector.poll(connection(), '5', 1_000, signal())).toEqual({ messages: [], cursor: '5' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('stops waiting when aborted', async () => {
    const controller = new AbortController();
    const polling = connector.poll(connection(), null, 30_000, controller.signal);
    setTimeout(() => controller.abort(new Error('shutting down')), 200);
    await expect(polling).rejects.toThrow('shutting down');
  });
});

describe('send', () => {
  it('sends a short answer as MarkdownV2 and answers its message id', async () => {
    const sent = await connector.send(connection(), outgoing('Your order **#123** ships tomorrow (Tuesday).'), signal());
    expect(fake.sent).toEqual([{ chatId: CHAT, text: 'Your order *\\#123* ships tomorrow \\(Tuesday\\)\\.', parseMode: 'MarkdownV2', messageId: 1 }]);
    expect(sent).toEqual({ channelMessageId: '1' });
  });

  it('sends a long answer as several messages, each within the limit, and answers the last id', async () => {
    const text = Array.from({ length: 30 }, (_, n) => `Section ${n}. ${'All items ship from our warehouse (EU-1) within 2-3 days! '.repeat(6)}`).join(
      '\n\n',
    );
    expect(text.length).toBeGreaterThan(10_000);
    const sent = await connector.send(connection(), outgoing(text), signal());
    expect(fake.sent.length).toBeGreaterThan(2);
    for (const message of fake.sent) {
      expect(message.text.length).toBeLessThanOrEqual(4096);
      expect(parseMarkdownV2(message.text)).toMatchObject({ ok: true });
    }
    expect(sent.channelMessageId).toBe(String(fake.sent.at(-1)?.messageId));
  });

  it('resends a part as plain text when Telegram cannot parse its entities', async () => {
    fake.failNext('sendMessage', { status: 400, description: "Bad Request: can't parse entities: Can't find end of Bold entity at byte offset 5" });
    const sent = await connector.send(connection(), outgoing('A **bold** claim. [Docs](https://example.com/docs)'), signal());
    expect(fake.sent).toEqual([{ chatId: CHAT, text: 'A bold claim. Docs (https://example.com/docs)', parseMode: undefined, messageId: 1 }]);
    expect(sent.channelMessageId).toBe('1');
  });

  it('waits out a short 429 and tries once more', async () => {
    fake.failNext('sendMessage', { status: 429, description: 'Too Many Requests: retry after 1', retryAfter: 1 });
    const started = Date.now();
    await connector.send(connection(), outgoing('hello'), signal());
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(fake.sent.map((m) => m.text)).toEqual(['hello']);
  });

  it('leaves a long 429 to the caller as retryable', async () => {
    fake.failNext('sendMessage', { status: 429, description: 'Too Many Requests: retry after 30', retryAfter: 30 });
    const error = await expectChannelError(connector.send(connection(), outgoing('hello'), signal()), true);
    expect(error.message).toMatch(/30 s/);
    expect(fake.sent).toEqual([]);
  });

  it('refuses for good on a refused token, without the token in the message', async () => {
    const error = await expectChannelError(
      connector.send(connection({ botToken: '123456789:AAOtherTokenOtherTokenOtherToken' }), outgoing('hi'), signal()),
      false,
    );
    expect(error.message).toBe('Telegram refused the bot token');
  });

  it('refuses for good on an unknown chat or a blocked bot', async () => {
    expect((await expectChannelError(connector.send(connection(), outgoing('hi', '999'), signal()), false)).message).toMatch(
      /does not know the chat/,
    );
    fake.failNext('sendMessage', { status: 403, description: 'Forbidden: bot was blocked by the user' });
    expect((await expectChannelError(connector.send(connection(), outgoing('hi'), signal()), false)).message).toMatch(/blocked/);
  });

  it('retries later on a server error or an unreachable Telegram', async () => {
    fake.failNext('sendMessage', { status: 502, description: 'Bad Gateway' });
    await expectChannelError(connector.send(connection(), outgoing('hi'), signal()), true);
    const error = await expectChannelError(connector.send(connection({ apiBaseUrl: await deadUrl() }), outgoing('hi'), signal()), true);
    expect(error.message).toMatch(/could not be reached/);
  });

  it('refuses an empty answer', async () => {
    await expectChannelError(connector.send(connection(), outgoing('  \n '), signal()), false);
    expect(fake.calls).toEqual([]);
  });
});

describe('typing', () => {
  it('shows typing, and swallows a failure', async () => {
    await connector.typing(connection(), CHAT, signal());
    expect(fake.chatActions).toEqual([{ chatId: CHAT, action: 'typing' }]);
    await expect(connector.typing(connection(), '999', signal())).resolves.toBeUndefined();
    await expect(connector.typing(connection({ apiBaseUrl: await deadUrl() }), CHAT, signal())).resolves.toBeUndefined();
  });
});

describe('through a fetch given to the connector (Parley’s guarded fetch)', () => {
  const guarded = (allow: string) =>
    new TelegramConnector({ fetch: guardedFetch(new OutboundPolicy(loadConfig({ PARLEY_OUTBOUND_ALLOW: allow }).outbound)) });

  it('checks, sends, long-polls and stops when aborted, as with grammy’s own client', async () => {
    const through = guarded('loopback');
    expect((await through.check(connection(), signal())).ok).toBe(true);
    expect(await through.send(connection(), outgoing('Hello **there**.'), signal())).toEqual({ channelMessageId: '1' });
    expect(fake.sent[0]).toMatchObject({ text: 'Hello *there*\\.', parseMode: 'MarkdownV2' });
    const polling = through.poll(connection(), null, 10_000, signal());
    await new Promise((resolve) => setTimeout(resolve, 200));
    fake.pushUpdate(textUpdate('woke', 5));
    expect((await polling).messages.map((m) => m.text)).toEqual(['woke']);
    const controller = new AbortController();
    const waiting = through.poll(connection(), '100', 30_000, controller.signal);
    setTimeout(() => controller.abort(new Error('stop')), 100);
    await expect(waiting).rejects.toThrow('stop');
    expect((await expectChannelError(through.send(connection({ apiBaseUrl: await deadUrl() }), outgoing('hi'), signal()), true)).message).toMatch(
      /could not be reached at 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
    );
  });

  it('refuses for good an API root the outbound policy does not allow, without the token', async () => {
    const through = guarded('public');
    const result = await through.check(connection(), signal());
    expect(result).toEqual({ ok: false, message: expect.stringMatching(/outbound policy does not allow connecting to 127\.0\.0\.1:\d+/) });
    await expectChannelError(through.send(connection(), outgoing('hi'), signal()), false);
    expect(fake.calls).toEqual([]);
  });
});
