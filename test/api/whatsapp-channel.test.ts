import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelConnectionBody, ConnectionTestResultBody } from '../../src/contract/channel-connections.js';
import type { ConversationBody, ErrorBody, MessageBody } from '../support/bodies.js';
import {
  FAKE_ACCESS_TOKEN,
  FAKE_APP_SECRET,
  FAKE_PHONE_NUMBER_ID,
  FakeGraphApi,
  customerMessage,
  customerText,
  messageStatus,
} from '../support/fake-graph-api.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { newShopAgent } from '../support/shop-agent.js';
import { storedBytes } from '../support/stored-bytes.js';
import { STORE_KINDS } from '../support/stores.js';
import { until } from '../support/until.js';

const OTHER_APP_SECRET = 'other-workspace-app-secret-0123456789';

let nextCustomer = 16505550100;

/**
 * WhatsApp end to end (README, "Channels"): a business number connected to an agent against a loopback Graph
 * API that also plays Meta's webhook side: the callback URL verified with the verify token, signed deliveries
 * answered by the agent, a member's reply sent, statuses shown on the message, re-deliveries stored once, and
 * another connection's signature (another workspace's) refused.
 */
describe.each(STORE_KINDS)('a WhatsApp number connected to an agent, on %s', (kind) => {
  let parley: TestParley;
  let graph: FakeGraphApi;
  let ws: Workspace;
  let agentId: string;
  let connection: ChannelConnectionBody;
  const seen: unknown[] = [];

  beforeAll(async () => {
    graph = new FakeGraphApi();
    await graph.start();
  });
  afterAll(async () => {
    await graph.close();
  });

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind, { workers: true });
    ws = await parley.newWorkspace();
    agentId = await newShopAgent(parley, ws.key, 'Shop bot');
  });

  const conversationOf = async (customer: string, workspace = ws) =>
    (
      await until(
        async () =>
          (await parley.call<ConversationBody[]>('GET', `/conversations?channel=whatsapp&channelExternalId=${customer}`, { key: workspace.key }))
            .body,
        (list) => list.length === 1,
      )
    )[0]!;

  it('connects with the number, the token and the app secret: a verify token is made, secrets show as hints', async () => {
    const created = await parley.call<ChannelConnectionBody>('POST', `/agents/${agentId}/channels`, {
      key: ws.key,
      body: {
        channel: 'whatsapp',
        config: { phoneNumberId: FAKE_PHONE_NUMBER_ID, accessToken: FAKE_ACCESS_TOKEN, appSecret: FAKE_APP_SECRET, graphApiBaseUrl: graph.url },
      },
    });
    seen.push(created.body);
    expect(created.status).toBe(200);
    connection = created.body;
    expect(connection).toMatchObject({
      channel: 'messenger_a',
      status: 'active',
      config: { phoneNumberId: FAKE_PHONE_NUMBER_ID, accessTokenHint: 'EAA…efZZ', appSecretHint: expect.any(String), templateName: null },
      inboundUrl: `${parley.url}/channels/${connection.id}/inbound`,
    });
    expect((connection.config as { verifyToken: string }).verifyToken).toMatch(/^[\w-]{32}$/);

    const tested = await parley.call<ConnectionTestResultBody>('POST', `/channels/${connection.id}/test`, { key: ws.key });
    expect(tested.body).toMatchObject({ ok: true, details: { verifiedName: 'Parley Test Shop', displayPhoneNumber: '+1 555-010-0199' } });
  });

  it('passes Meta’s verification of the callback URL with the verify token, and refuses another token', async () => {
    const url = connection.inboundUrl!;
    expect(await graph.verifyCallback(url, 'not-the-verify-token')).toEqual({ status: 401, verified: false });
    expect(await graph.verifyCallback(url, (connection.config as { verifyToken: string }).verifyToken)).toEqual({ status: 200, verified: true });
  });

  it('answers a signed message in the chat, storing and answering it once however often Meta delivers it', async () => {
    const customer = String(nextCustomer++);
    const question = customerText(customer, 'Sheena Nelson', 'When does the shop open on Monday?');
    const answered = graph.nextSent(customer);
    expect(await graph.deliver(question)).toBe(200);
    expect(await graph.deliver(question)).toBe(200);
    const { message: answer } = await answered;
    expect(answer).toMatchObject({ type: 'text', text: expect.stringContaining('9 am') });

    const conversation = await conversationOf(customer);
    expect(conversation).toMatchObject({ channel: 'messenger_a', channelExternalId: customer });
    const full = await parley.call<ConversationBody>('GET', `/conversations/${conversation.id}`, { key: ws.key });
    expect(full.body.messages.map((message) => message.from).sort()).toEqual(['agent', 'human']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(graph.sent.filter((message) => message.to === customer)).toHaveLength(1);

    // Meta's statuses of the answer show on it, never going back.
    const agentMessage = full.body.messages.find((message) => message.from === 'agent')!;
    const stateOf = async () =>
      (await parley.call<ConversationBody>('GET', `/conversations/${conversation.id}`, { key: ws.key })).body.messages.find(
        (message) => message.id === agentMessage.id,
      )?.delivery?.state;
    expect(await stateOf()).toBe('sent');
    expect(await graph.deliver(messageStatus(customer, answer.id, 'delivered'))).toBe(200);
    expect(await stateOf()).toBe('delivered');
    expect(await graph.deliver(messageStatus(customer, answer.id, 'read'))).toBe(200);
    expect(await graph.deliver(messageStatus(customer, answer.id, 'delivered'))).toBe(200);
    expect(await stateOf()).toBe('read');
  });

  it('keeps a photo as the message’s attachment, downloaded through the Graph API', async () => {
    const customer = String(nextCustomer++);
    graph.addMedia('88001', Buffer.from('fake jpeg bytes'), 'image/jpeg');
    expect(
      await graph.deliver(
        customerMessage(customer, 'Ada', 'image', { caption: 'Is this the right cable?', mime_type: 'image/jpeg', sha256: 'x', id: '88001' }),
      ),
    ).toBe(200);
    const conversation = await conversationOf(customer);
    const full = await parley.call<ConversationBody>('GET', `/conversations/${conversation.id}`, { key: ws.key });
    const human = full.body.messages.find((message) => message.from === 'human') as MessageBody;
    expect(human).toMatchObject({ text: 'Is this the right cable?', attachments: [{ name: 'image.jpg', mimeType: 'image/jpeg', size: 15 }] });
  });

  it('sends a member’s reply from the inbox; outside WhatsApp’s 24 hours it fails with the reason, not silently', async () => {
    const customer = String(nextCustomer++);
    await graph.deliver(customerText(customer, 'Ada', 'I want to speak to a person'));
    const conversationId = (await conversationOf(customer)).id;
    const member = await parley.newMember(ws.id, 'member');
    const reply = await parley.call<{ id: string }>('POST', `/conversations/${conversationId}/messages`, {
      key: member.accessToken,
      body: { text: 'Hello Ada, Grace here. Opening hours are 9–6.' },
    });
    expect(reply.status).toBe(201);
    await until(
      () => graph.sent.filter((message) => message.to === customer).map((message) => message.text),
      (texts) => texts.some((text) => text?.includes('Grace here')),
    );

    // WhatsApp's clock says the window closed (Parley's does not): its refusal is shown on the message.
    graph.customerWrote(customer, Date.now() - 25 * 60 * 60 * 1000);
    const late = await parley.call<{ id: string }>('POST', `/conversations/${conversationId}/messages`, {
      key: member.accessToken,
      body: { text: 'Are you still there?' },
    });
    const stored = await until(
      () => parley.core.store.messages.find(ws.id, late.body.id),
      (message) => message?.delivery?.state === 'failed',
    );
    expect(stored?.delivery?.error).toMatch(/24 hours.*template/);
  });

  it('refuses unsigned deliveries and those signed with another connection’s secret (another workspace’s): nothing is stored', async () => {
    const other = await parley.newWorkspace();
    const otherAgent = await parley.call<{ id: string }>('POST', '/agents', { key: other.key, body: { name: 'Other bot' } });
    const otherConnection = await parley.call<ChannelConnectionBody>('POST', `/agents/${otherAgent.body.id}/channels`, {
      key: other.key,
      body: {
        channel: 'messenger_a',
        config: { phoneNumberId: FAKE_PHONE_NUMBER_ID, accessToken: FAKE_ACCESS_TOKEN, appSecret: OTHER_APP_SECRET, graphApiBaseUrl: graph.url },
      },
    });
    expect(otherConnection.status).toBe(200);
    const customer = String(nextCustomer++);
    const planted = customerText(customer, 'Mallory', 'planted');
    expect(await graph.deliver(planted, { appSecret: OTHER_APP_SECRET })).toBe(401);
    expect(await graph.deliver(planted, { appSecret: null })).toBe(401);
    // The other workspace's URL takes its own secret, and A's message lands there, not in A.
    expect(await graph.deliver(planted, { url: otherConnection.body.inboundUrl!, appSecret: FAKE_APP_SECRET })).toBe(401);
    expect(await graph.verifyCallback(otherConnection.body.inboundUrl!, (connection.config as { verifyToken: string }).verifyToken)).toMatchObject({
      status: 401,
    });
    expect(await graph.deliver(planted, { url: otherConnection.body.inboundUrl!, appSecret: OTHER_APP_SECRET })).toBe(200);
    await conversationOf(customer, other);
    for (const workspace of [ws]) {
      const list = await parley.call<ConversationBody[]>('GET', '/conversations', { key: workspace.key });
      expect(JSON.stringify(list.body)).not.toContain('planted');
    }
    // A's key cannot see or change B's connection.
    expect((await parley.call<ErrorBody>('GET', `/channels/${otherConnection.body.id}`, { key: ws.key })).status).toBe(403);
  });

  it('takes a template for later replies, and drops it with null', async () => {
    const changed = await parley.call<ChannelConnectionBody>('PATCH', `/channels/${connection.id}`, {
      key: ws.key,
      body: { config: { templateName: 'reply_waiting', templateLanguage: 'en_US' } },
    });
    seen.push(changed.body);
    expect(changed.body.config).toMatchObject({
      templateName: 'reply_waiting',
      templateLanguage: 'en_US',
      verifyToken: (connection.config as { verifyToken: string }).verifyToken,
    });
    const incomplete = await parley.call<ErrorBody>('PATCH', `/channels/${connection.id}`, {
      key: ws.key,
      body: { config: { templateLanguage: null } },
    });
    expect(incomplete.status).toBe(400);
    const dropped = await parley.call<ChannelConnectionBody>('PATCH', `/channels/${connection.id}`, {
      key: ws.key,
      body: { config: { templateName: null } },
    });
    expect(dropped.body.config).toMatchObject({ templateName: null, templateLanguage: null });
  });

  it('keeps the access token and the app secret out of every answer and out of the database in clear', async () => {
    const text = JSON.stringify(seen);
    expect(text).not.toContain(FAKE_ACCESS_TOKEN);
    expect(text).not.toContain(FAKE_APP_SECRET);
    const stored = await storedBytes(parley, 'channel_connection');
    expect(stored).not.toContain(FAKE_ACCESS_TOKEN);
    expect(stored).not.toContain(FAKE_APP_SECRET);
  });

  it('refuses deliveries once the connection is deleted', async () => {
    expect((await parley.call('DELETE', `/channels/${connection.id}`, { key: ws.key })).status).toBe(200);
    expect(await graph.deliver(customerText(String(nextCustomer++), 'Ada', 'Hello?'))).toBe(404);
  });
});
