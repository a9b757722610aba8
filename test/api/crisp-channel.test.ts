import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelConnectionBody, ConnectionTestResultBody } from '../../src/contract/channel-connections.js';
import { HANDOVER_NOTE } from '../../src/channels/crisp/crisp-connector.js';
import type { ConversationBody, ErrorBody } from '../support/bodies.js';
import { FAKE_CRISP_IDENTIFIER, FAKE_CRISP_KEY, FAKE_CRISP_WEBSITE_ID, FakeCrispApi, visitorMessageHook } from '../support/fake-crisp-api.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { newShopAgent } from '../support/shop-agent.js';
import { storedBytes } from '../support/stored-bytes.js';
import { STORE_KINDS } from '../support/stores.js';
import { until } from '../support/until.js';

const SIGNING_SECRET = 'crisp-plugin-signing-secret-for-tests';
const OTHER_SIGNING_SECRET = 'another-workspace-signing-secret';

let nextSession = 1000;
const newSession = () => `session_00000000-0000-4000-8000-${String(nextSession++).padStart(12, '0')}`;

/**
 * Crisp end to end (README, "Channels"): a Crisp website connected to an agent with a plugin token; visitors'
 * messages arrive as signed Plugin Hooks on the connection's URL (its key checked too), the agent's answer and a
 * member's reply go back through Crisp's REST API (a loopback fake), a request for a person hands the
 * conversation to Crisp's operators; another workspace's connection can reach nothing of this one's.
 */
describe.each(STORE_KINDS)('a Crisp website connected to an agent, on %s', (kind) => {
  let parley: TestParley;
  let crisp: FakeCrispApi;
  let ws: Workspace;
  let agentId: string;
  let connection: ChannelConnectionBody;
  const seen: unknown[] = [];

  beforeAll(async () => {
    crisp = new FakeCrispApi();
    await crisp.start();
  });
  afterAll(async () => {
    await crisp.close();
  });

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind, { workers: true });
    ws = await parley.newWorkspace();
    agentId = await newShopAgent(parley, ws.key, 'Shop bot');
  });

  const conversationOf = async (session: string, key = ws.key) =>
    until(
      async () => (await parley.call<ConversationBody[]>('GET', `/conversations?channelExternalId=${session}`, { key })).body,
      (list) => list.length === 1,
    ).then((list) => list[0]!);

  it('connects with the website and a plugin token: the hook URL carries the connection’s key, the answer only hints at the secrets', async () => {
    const created = await parley.call<ChannelConnectionBody>('POST', `/agents/${agentId}/channels`, {
      key: ws.key,
      body: {
        channel: 'crisp',
        config: {
          websiteId: FAKE_CRISP_WEBSITE_ID,
          identifier: FAKE_CRISP_IDENTIFIER,
          key: FAKE_CRISP_KEY,
          signingSecret: SIGNING_SECRET,
          apiBaseUrl: crisp.url,
        },
      },
    });
    seen.push(created.body);
    expect(created.status).toBe(200);
    connection = created.body;
    expect(connection).toMatchObject({
      channel: 'helpdesk',
      status: 'active',
      config: {
        websiteId: FAKE_CRISP_WEBSITE_ID,
        identifier: FAKE_CRISP_IDENTIFIER,
        keyHint: 'cc2…0a0a',
        signingSecretHint: expect.any(String),
        apiBaseUrl: crisp.url,
      },
    });
    expect(connection.inboundUrl).toMatch(new RegExp(`^${parley.url}/channels/${connection.id}/inbound\\?key=[\\w-]{32,}$`));

    const tested = await parley.call<ConnectionTestResultBody>('POST', `/channels/${connection.id}/test`, { key: ws.key });
    expect(tested.body).toMatchObject({ ok: true, details: { websiteName: 'Shop Support' } });
    expect(crisp.calls.at(-1)).toMatchObject({ basic: `${FAKE_CRISP_IDENTIFIER}:${FAKE_CRISP_KEY}`, tier: 'plugin' });
  });

  it('answers a visitor’s signed message in the Crisp conversation, once however often Crisp delivers the hook', async () => {
    const session = newSession();
    const hook = visitorMessageHook(session, 'When does the shop open on Monday?', { nickname: 'Ada' });
    expect(await crisp.deliverHook(connection.inboundUrl!, hook, { signingSecret: SIGNING_SECRET })).toBe(200);
    // Crisp delivers again (signed anew): the same fingerprint is stored once and answered once.
    expect(await crisp.deliverHook(connection.inboundUrl!, hook, { signingSecret: SIGNING_SECRET, timestamp: Date.now() + 1 })).toBe(200);
    const [answer] = await until(
      () => crisp.textsTo(session),
      (texts) => texts.length > 0,
    );
    expect(answer).toContain('9 am');
    const conversation = await conversationOf(session);
    expect(conversation).toMatchObject({ channel: 'helpdesk', channelExternalId: session });
    const full = await parley.call<ConversationBody>('GET', `/conversations/${conversation.id}`, { key: ws.key });
    expect(full.body.messages.map((message) => message.from).sort()).toEqual(['agent', 'human']);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(crisp.textsTo(session)).toHaveLength(1);
  });

  it('hands a conversation where a person was asked for to Crisp’s operators: a note in Crisp, unresolved there, the agent off', async () => {
    const session = newSession();
    await crisp.deliverHook(connection.inboundUrl!, visitorMessageHook(session, 'Hello'), { signingSecret: SIGNING_SECRET });
    await until(
      () => crisp.textsTo(session),
      (texts) => texts.length > 0,
    );
    const conversation = await conversationOf(session);
    const asked = await parley.call('PATCH', `/conversations/${conversation.id}`, { key: ws.key, body: { status: 'HUMAN_REQUESTED' } });
    expect(asked.status).toBe(200);
    await until(
      () => crisp.states.filter((change) => change.sessionId === session),
      (changes) => changes.length > 0,
    );
    expect(crisp.states.filter((change) => change.sessionId === session)).toEqual([{ sessionId: session, state: 'unresolved' }]);
    expect(crisp.posted.filter((message) => message.sessionId === session && message.type === 'note').map((message) => message.content)).toEqual([
      HANDOVER_NOTE,
    ]);
    const handed = await until(
      async () => (await parley.call<ConversationBody>('GET', `/conversations/${conversation.id}`, { key: ws.key })).body,
      (body) => body.isAiEnabled === false,
    );
    expect(handed.status).toBe('HUMAN_REQUESTED');
    expect(crisp.textsTo(session).at(-1)).toBe('A person will answer here soon.');

    // The visitor writes again: stored, and the agent stays silent.
    const before = crisp.textsTo(session).length;
    await crisp.deliverHook(connection.inboundUrl!, visitorMessageHook(session, 'Is anyone there?'), { signingSecret: SIGNING_SECRET });
    await until(
      async () => (await parley.call<ConversationBody>('GET', `/conversations/${conversation.id}`, { key: ws.key })).body.messages,
      (messages) => messages.some((message) => message.text === 'Is anyone there?'),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(crisp.textsTo(session)).toHaveLength(before);
  });

  it('sends a member’s reply from the inbox to the Crisp conversation, and records that it went out', async () => {
    const session = newSession();
    await crisp.deliverHook(connection.inboundUrl!, visitorMessageHook(session, 'I need help with my order'), { signingSecret: SIGNING_SECRET });
    const conversation = await conversationOf(session);
    const member = await parley.newMember(ws.id, 'member');
    const reply = await parley.call<{ id: string }>('POST', `/conversations/${conversation.id}/messages`, {
      key: member.accessToken,
      body: { text: 'Hello, Grace here: your order left today.' },
    });
    expect(reply.status).toBe(201);
    await until(
      () => crisp.textsTo(session),
      (texts) => texts.some((text) => text.includes('Grace here')),
    );
    const stored = await until(
      () => parley.core.store.messages.find(ws.id, reply.body.id),
      (message) => message?.delivery?.state === 'sent',
    );
    expect(stored?.channelMessageId).toMatch(/^\d+$/);
  });

  it('refuses hooks without the key, with another connection’s key or signature, or expired; nothing is stored', async () => {
    const other = await parley.newWorkspace();
    const otherAgent = await parley.call<{ id: string }>('POST', '/agents', { key: other.key, body: { name: 'Other bot' } });
    const otherConnection = await parley.call<ChannelConnectionBody>('POST', `/agents/${otherAgent.body.id}/channels`, {
      key: other.key,
      body: {
        channel: 'helpdesk',
        config: {
          websiteId: FAKE_CRISP_WEBSITE_ID,
          identifier: FAKE_CRISP_IDENTIFIER,
          key: FAKE_CRISP_KEY,
          signingSecret: OTHER_SIGNING_SECRET,
          apiBaseUrl: crisp.url,
        },
      },
    });
    expect(otherConnection.status).toBe(200);
    const ours = new URL(connection.inboundUrl!);
    const theirs = new URL(otherConnection.body.inboundUrl!);
    const session = newSession();
    const hook = visitorMessageHook(session, 'planted');
    const attempts: [string, { signingSecret?: string; timestamp?: number }][] = [
      [`${ours.origin}${ours.pathname}`, { signingSecret: SIGNING_SECRET }],
      [`${ours.origin}${ours.pathname}${theirs.search}`, { signingSecret: SIGNING_SECRET }],
      [connection.inboundUrl!, { signingSecret: OTHER_SIGNING_SECRET }],
      [connection.inboundUrl!, {}],
      [connection.inboundUrl!, { signingSecret: SIGNING_SECRET, timestamp: Date.now() - 10 * 60_000 }],
      [`${theirs.origin}${theirs.pathname}${ours.search}`, { signingSecret: OTHER_SIGNING_SECRET }],
      [otherConnection.body.inboundUrl!, { signingSecret: SIGNING_SECRET }],
    ];
    for (const [url, signing] of attempts) expect(await crisp.deliverHook(url, hook, signing)).toBe(401);
    for (const key of [ws.key, other.key]) {
      const list = await parley.call<ConversationBody[]>('GET', '/conversations', { key });
      expect(JSON.stringify(list.body)).not.toContain('planted');
    }
    // Workspace B's key cannot see or change A's connection.
    // (the house answers 403 for another workspace's resource: it exists, and is not theirs)
    const before = crisp.calls.length;
    expect((await parley.call<ErrorBody>('GET', `/channels/${connection.id}`, { key: other.key })).status).toBe(403);
    expect((await parley.call<ErrorBody>('POST', `/channels/${connection.id}/test`, { key: other.key })).status).toBe(403);
    expect(crisp.calls).toHaveLength(before);

    // B's own hook lands in B's workspace only.
    const theirSession = newSession();
    expect(
      await crisp.deliverHook(otherConnection.body.inboundUrl!, visitorMessageHook(theirSession, 'Hello from B'), {
        signingSecret: OTHER_SIGNING_SECRET,
      }),
    ).toBe(200);
    await conversationOf(theirSession, other.key);
    expect((await parley.call<ConversationBody[]>('GET', `/conversations?channelExternalId=${theirSession}`, { key: ws.key })).body).toEqual([]);
  });

  it('keeps the token key and the signing secret out of every answer and out of the database in clear', async () => {
    const listed = await parley.call<ChannelConnectionBody[]>('GET', `/agents/${agentId}/channels`, { key: ws.key });
    seen.push(listed.body);
    const text = JSON.stringify(seen);
    expect(text).not.toContain(FAKE_CRISP_KEY);
    expect(text).not.toContain(SIGNING_SECRET);
    const stored = await storedBytes(parley, 'channel_connection');
    expect(stored).not.toContain(FAKE_CRISP_KEY);
    expect(stored).not.toContain(SIGNING_SECRET);
  });
});
