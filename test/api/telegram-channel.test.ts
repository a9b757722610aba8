import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelConnectionBody, ConnectionTestResultBody } from '../../src/contract/channel-connections.js';
import type { ConversationBody, ErrorBody } from '../support/bodies.js';
import { FAKE_BOT_TOKEN, FakeTelegramBotApi } from '../support/fake-telegram-bot-api.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { newShopAgent } from '../support/shop-agent.js';
import { storedBytes } from '../support/stored-bytes.js';
import { STORE_KINDS } from '../support/stores.js';
import { until } from '../support/until.js';

let nextChat = 5000;
/** A private chat's text message as Telegram sends it. */
const textUpdate = (chatId: number, text: string, messageId = 1) => ({
  message: {
    message_id: messageId,
    date: Math.floor(Date.now() / 1000),
    chat: { id: chatId, type: 'private', first_name: 'Ada', last_name: 'Lovelace', username: 'ada' },
    from: { id: chatId, is_bot: false, first_name: 'Ada', last_name: 'Lovelace', username: 'ada', language_code: 'en' },
    text,
  },
});

/**
 * Telegram end to end (README, "Channels"): a bot connected to an agent over the real client library and a
 * loopback Bot API; updates by webhook (the secret checked) and by long polling; the agent's answer, a
 * member's reply and the typing indicator reach the chat; replays answered once; the token sealed at rest.
 */
describe.each(STORE_KINDS)('a Telegram bot connected to an agent, on %s', (kind) => {
  let parley: TestParley;
  let telegram: FakeTelegramBotApi;
  let ws: Workspace;
  let agentId: string;
  const seen: unknown[] = [];

  beforeAll(async () => {
    telegram = new FakeTelegramBotApi();
    await telegram.start();
  });
  afterAll(async () => {
    await telegram.close();
  });

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind, { workers: true });
    ws = await parley.newWorkspace();
    agentId = await newShopAgent(parley, ws.key, 'Shop bot');
  });

  const connect = async (mode: 'webhook' | 'polling') => {
    const created = await parley.call<ChannelConnectionBody>('POST', `/agents/${agentId}/channels`, {
      key: ws.key,
      body: { channel: 'telegram', config: { botToken: FAKE_BOT_TOKEN, mode, apiBaseUrl: telegram.url } },
    });
    seen.push(created.body);
    expect(created.status).toBe(200);
    return created.body;
  };

  let connection: ChannelConnectionBody;

  it('connects in webhook mode: Telegram is given the inbound URL and a secret; the answer shows only a hint of the token', async () => {
    connection = await connect('webhook');
    expect(connection).toMatchObject({
      channel: 'messenger_b',
      status: 'active',
      enabled: true,
      config: { mode: 'webhook', botTokenHint: '123…ghij' },
    });
    expect(connection.inboundUrl).toBe(`${parley.url}/channels/${connection.id}/inbound`);
    expect(telegram.webhook?.url).toBe(connection.inboundUrl);
    expect(telegram.webhook?.secretToken).toMatch(/^[\w-]{32,}$/);

    const tested = await parley.call<ConnectionTestResultBody>('POST', `/channels/${connection.id}/test`, { key: ws.key });
    expect(tested.body).toMatchObject({ ok: true, details: { botUsername: 'parley_test_bot' } });
    const listed = await parley.call<ChannelConnectionBody[]>('GET', `/agents/${agentId}/channels`, { key: ws.key });
    seen.push(listed.body);
    expect(listed.body).toMatchObject([{ id: connection.id, config: { botUsername: 'parley_test_bot' } }]);
  });

  it('refuses a second connection of the agent to Telegram', async () => {
    const again = await parley.call<ErrorBody>('POST', `/agents/${agentId}/channels`, {
      key: ws.key,
      body: { channel: 'messenger_b', config: { botToken: FAKE_BOT_TOKEN, apiBaseUrl: telegram.url } },
    });
    expect(again.status).toBe(409);
  });

  it('refuses deliveries without the secret, or with another, before reading them', async () => {
    const url = `/channels/${connection.id}/inbound`;
    const body = JSON.stringify({ update_id: 1, ...textUpdate(1, 'planted') });
    for (const headers of [{}, { 'x-telegram-bot-api-secret-token': 'wrong-secret' }] as Record<string, string>[]) {
      const refused = await parley.call<ErrorBody>('POST', url, { raw: body, headers: { 'content-type': 'application/json', ...headers } });
      expect(refused.status).toBe(401);
      expect(refused.body.error).toBe('UNAUTHORIZED');
    }
    expect((await parley.call('POST', `/channels/nonexistent/inbound`, { raw: body })).status).toBe(404);
    const list = await parley.call<ConversationBody[]>('GET', '/conversations', { key: ws.key });
    expect(JSON.stringify(list.body)).not.toContain('planted');
  });

  it('answers a question sent through the webhook in the chat, once however often Telegram delivers it, typing meanwhile', async () => {
    const chat = nextChat++;
    const update = { update_id: 100, ...textUpdate(chat, 'When does the shop open on Monday?') };
    expect(await telegram.deliverToWebhook(update)).toBe(200);
    expect(await telegram.deliverToWebhook(update)).toBe(200);
    const [sent] = await until(
      () => telegram.sent.filter((message) => message.chatId === String(chat)),
      (messages) => messages.length > 0,
    );
    expect(sent!.text).toContain('9 am');
    expect(telegram.chatActions).toContainEqual({ chatId: String(chat), action: 'typing' });

    const conversations = await parley.call<ConversationBody[]>('GET', `/conversations?channel=telegram&channelExternalId=${chat}`, { key: ws.key });
    expect(conversations.body).toHaveLength(1);
    const conversation = conversations.body[0]!;
    expect(conversation).toMatchObject({ channel: 'messenger_b', channelExternalId: String(chat) });
    const full = await parley.call<ConversationBody>('GET', `/conversations/${conversation.id}`, { key: ws.key });
    expect(full.body.messages.map((message) => message.from).sort()).toEqual(['agent', 'human']);
    // A second delivery of the update was stored once and answered once.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(telegram.sent.filter((message) => message.chatId === String(chat))).toHaveLength(1);
  });

  it('sends a member’s reply from the inbox to the chat, and records that it went out', async () => {
    const chat = nextChat++;
    await telegram.deliverToWebhook({ update_id: 200, ...textUpdate(chat, 'I want to speak to a person') });
    const conversations = await until(
      async () => (await parley.call<ConversationBody[]>('GET', `/conversations?channelExternalId=${chat}`, { key: ws.key })).body,
      (list) => list.length === 1,
    );
    const conversationId = conversations[0]!.id;
    const member = await parley.newMember(ws.id, 'member');
    const reply = await parley.call<{ id: string }>('POST', `/conversations/${conversationId}/messages`, {
      key: member.accessToken,
      body: { text: 'Hello Ada, Grace here. Opening hours are 9–6.' },
    });
    expect(reply.status).toBe(201);
    await until(
      () => telegram.sent.filter((message) => message.chatId === String(chat)).map((message) => message.text),
      (texts) => texts.some((text) => text.includes('Grace here')),
    );
    const stored = await until(
      () => parley.core.store.messages.find(ws.id, reply.body.id),
      (message) => message?.delivery?.state === 'sent',
    );
    expect(stored?.channelMessageId).toMatch(/^\d+$/);

    // A private note stays with the team: nothing reaches the chat, and it has no delivery state.
    const note = await parley.call<{ id: string }>('POST', `/conversations/${conversationId}/notes`, {
      key: member.accessToken,
      body: { text: 'Ada is a VIP customer: call her back' },
    });
    expect(note.status).toBe(201);
    const after = await parley.call('POST', `/conversations/${conversationId}/messages`, { key: member.accessToken, body: { text: 'See you soon' } });
    expect(after.status).toBe(201);
    await until(
      () => telegram.sent.filter((message) => message.chatId === String(chat)).map((message) => message.text),
      (texts) => texts.some((text) => text.includes('See you soon')),
    );
    expect(telegram.sent.map((message) => message.text).join('\n')).not.toContain('VIP');
    expect((await parley.core.store.messages.find(ws.id, note.body.id))?.delivery).toBeNull();
  });

  it('marks a reply Telegram refuses as failed, with the reason, and the connection as failing', async () => {
    const chat = nextChat++;
    await telegram.deliverToWebhook({ update_id: 300, ...textUpdate(chat, 'Hi') });
    const conversations = await until(
      async () => (await parley.call<ConversationBody[]>('GET', `/conversations?channelExternalId=${chat}`, { key: ws.key })).body,
      (list) => list.length === 1,
    );
    // Let the agent's answer go out first, then the chat is gone (the person blocked the bot).
    await until(
      () => telegram.sent.filter((message) => message.chatId === String(chat)),
      (messages) => messages.length > 0,
    );
    telegram.chats.delete(String(chat));
    const member = await parley.newMember(ws.id, 'member');
    const reply = await parley.call<{ id: string }>('POST', `/conversations/${conversations[0]!.id}/messages`, {
      key: member.accessToken,
      body: { text: 'Are you still there?' },
    });
    const stored = await until(
      () => parley.core.store.messages.find(ws.id, reply.body.id),
      (message) => message?.delivery?.state === 'failed',
    );
    expect(stored?.delivery?.error).toMatch(/chat/i);
    expect(stored?.delivery?.error).not.toContain(FAKE_BOT_TOKEN);
    const listed = await parley.call<ChannelConnectionBody>('GET', `/channels/${connection.id}`, { key: ws.key });
    expect(listed.body.lastError).toMatch(/chat/i);
  });

  it('switches to long polling: the webhook is removed and updates are fetched, confirmed and answered', async () => {
    const changed = await parley.call<ChannelConnectionBody>('PATCH', `/channels/${connection.id}`, {
      key: ws.key,
      body: { config: { mode: 'polling' } },
    });
    seen.push(changed.body);
    expect(changed.body).toMatchObject({ config: { mode: 'polling' }, inboundUrl: null });
    expect(telegram.webhook).toBeNull();
    const chat = nextChat++;
    // Out of order: the later update first; both are answered, each once.
    telegram.pushUpdate({ update_id: 402, ...textUpdate(chat, 'Are you open on Sunday?', 2) });
    telegram.pushUpdate({ update_id: 401, ...textUpdate(chat, 'When does the shop close?', 1) });
    await until(
      () => telegram.sent.filter((message) => message.chatId === String(chat)),
      (messages) => messages.length >= 2,
      30_000,
    );
    await until(
      () => telegram.pendingUpdates,
      (pending) => pending.length === 0,
    );
    const conversation = await until(
      async () => (await parley.call<ConversationBody[]>('GET', `/conversations?channelExternalId=${chat}`, { key: ws.key })).body,
      (list) => list.length === 1,
    );
    const full = await parley.call<ConversationBody>('GET', `/conversations/${conversation[0]!.id}`, { key: ws.key });
    expect(full.body.messages.filter((message) => message.from === 'human')).toHaveLength(2);
  });

  it('keeps the bot token and the webhook secret out of every answer and out of the database in clear', async () => {
    const text = JSON.stringify(seen);
    expect(text).not.toContain(FAKE_BOT_TOKEN);
    expect(text).not.toContain(telegram.calls.find((call) => call.method === 'setWebhook')?.params.secret_token as string);
    expect(await storedBytes(parley, 'channel_connection')).not.toContain(FAKE_BOT_TOKEN.split(':')[1]);
  });

  it('stops polling and tells Telegram nothing more once deleted', async () => {
    const deleted = await parley.call<ChannelConnectionBody>('DELETE', `/channels/${connection.id}`, { key: ws.key });
    expect(deleted.status).toBe(200);
    expect((await parley.call('GET', `/channels/${connection.id}`, { key: ws.key })).status).toBe(404);
    await until(
      () => parley.core.store.jobs.find(`job_poll_${connection.id}`),
      (job) => job?.status === 'done',
      30_000,
    );
  });
});
