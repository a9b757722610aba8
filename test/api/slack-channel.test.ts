import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelConnectionBody, ConnectionTestResultBody } from '../../src/contract/channel-connections.js';
import type { ConversationBody, ErrorBody } from '../support/bodies.js';
import { FAKE_SLACK_BOT_TOKEN, FAKE_SLACK_SIGNING_SECRET, FakeSlackApi, type PostedSlackMessage } from '../support/fake-slack-api.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { storedBytes } from '../support/stored-bytes.js';
import { STORE_KINDS } from '../support/stores.js';
import { until } from '../support/until.js';

const OTHER_SIGNING_SECRET = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const ADA = 'U0ADA00001';

let nextChannel = 1;
/** A fresh channel id per test, so that each test's threads and posts are its own. */
const newChannel = (prefix = 'C') => `${prefix}0TEST${String(nextChannel++).padStart(4, '0')}`;

/**
 * Slack end to end (README, "Channels"): a Slack app connected to an agent, its Events API and slash command
 * delivered to the connection's Request URL and checked against its signing secret, answers posted through
 * `@slack/web-api` to a loopback Web API in the thread of the question; Slack's retries stored once; a member's
 * reply from the inbox in the same thread; another connection's secret, another workspace's, refused.
 */
describe.each(STORE_KINDS)('a Slack app connected to an agent, on %s', (kind) => {
  let parley: TestParley;
  let slack: FakeSlackApi;
  let ws: Workspace;
  let agentId: string;
  let connection: ChannelConnectionBody;
  const seen: unknown[] = [];

  beforeAll(async () => {
    slack = new FakeSlackApi();
    await slack.start();
  });
  afterAll(async () => {
    await slack.close();
  });

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind, { workers: true });
    ws = await parley.newWorkspace();
    agentId = (await parley.call<{ id: string }>('POST', '/agents', { key: ws.key, body: { name: 'Shop bot' } })).body.id;
  });

  const inboundPath = (id: string) => `/channels/${id}/inbound`;
  const postedIn = (channel: string) => slack.posted.filter((posted) => posted.channel === channel);
  const conversationsOf = async (channelExternalId: string, key = ws.key) =>
    (await parley.call<ConversationBody[]>('GET', `/conversations?channel=slack&channelExternalId=${encodeURIComponent(channelExternalId)}`, { key }))
      .body;
  const mention = (channel: string, ts: string, text: string) =>
    slack.eventCallback({ type: 'app_mention', user: ADA, text: `<@${slack.bot.userId}> ${text}`, ts, channel, team: slack.team.id });

  it('connects with a bot token and a signing secret: the Request URL to paste, hints of both secrets, the bot named by its test', async () => {
    const created = await parley.call<ChannelConnectionBody>('POST', `/agents/${agentId}/channels`, {
      key: ws.key,
      body: { channel: 'slack', config: { botToken: FAKE_SLACK_BOT_TOKEN, signingSecret: FAKE_SLACK_SIGNING_SECRET, apiBaseUrl: slack.url } },
    });
    seen.push(created.body);
    expect(created.status).toBe(200);
    connection = created.body;
    expect(connection).toMatchObject({
      channel: 'team_chat',
      status: 'active',
      config: { apiBaseUrl: slack.url, botTokenHint: 'xox…Only', signingSecretHint: '0f1…e1f0', botUsername: null },
    });
    expect(connection.inboundUrl).toBe(`${parley.url}/channels/${connection.id}/inbound`);

    const tested = await parley.call<ConnectionTestResultBody>('POST', `/channels/${connection.id}/test`, { key: ws.key });
    expect(tested.body).toMatchObject({ ok: true, details: { botUsername: 'parley', team: 'Parley Test Workspace' } });
    const listed = await parley.call<ChannelConnectionBody[]>('GET', `/agents/${agentId}/channels`, { key: ws.key });
    seen.push(listed.body);
    expect(listed.body).toMatchObject([{ id: connection.id, config: { botUsername: 'parley' } }]);

    const wrong = await parley.call<ErrorBody>('POST', `/agents/${agentId}/channels`, {
      key: ws.key,
      body: { channel: 'team_chat', config: { botToken: 'xoxp-user-token', signingSecret: 'x' } },
    });
    expect(wrong.status).toBe(400);
  });

  it('answers Slack’s url_verification with the challenge', async () => {
    const answer = await slack.deliver(connection.inboundUrl!, { token: 't', challenge: 'the-challenge-123', type: 'url_verification' });
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toEqual({ challenge: 'the-challenge-123' });
  });

  it('answers a mention in the thread of the question, at once, and once however often Slack delivers it', async () => {
    const channel = newChannel();
    const ts = slack.nextTs();
    const event = mention(channel, ts, 'When does the shop open on Monday?');
    const started = Date.now();
    const first = await slack.deliver(connection.inboundUrl!, event);
    expect(first.status).toBe(200);
    // Acknowledged before the agent writes: Slack waits 3 s at most.
    expect(Date.now() - started).toBeLessThan(3000);
    // Slack's retry: the same event, signed again, with its retry headers.
    expect((await slack.deliver(connection.inboundUrl!, event, { retryNum: 1 })).status).toBe(200);

    const [answer] = await until(
      () => postedIn(channel),
      (posted) => posted.length > 0,
    );
    expect(answer).toMatchObject({ threadTs: ts });
    const conversations = await conversationsOf(`${channel}:${ts}`);
    expect(conversations).toHaveLength(1);
    expect(conversations[0]).toMatchObject({ channel: 'team_chat', channelExternalId: `${channel}:${ts}` });
    const full = await parley.call<ConversationBody>('GET', `/conversations/${conversations[0]!.id}`, { key: ws.key });
    expect(full.body.messages.map((message) => message.from).sort()).toEqual(['agent', 'human']);
    expect(full.body.messages.find((message) => message.from === 'human')?.text).toBe('When does the shop open on Monday?');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(postedIn(channel)).toHaveLength(1);

    // A follow-up in the same thread joins the conversation.
    await slack.deliver(connection.inboundUrl!, {
      ...mention(channel, slack.nextTs(), 'And on Sunday?'),
      event: { ...(mention(channel, slack.nextTs(), 'And on Sunday?').event as object), thread_ts: ts },
    });
    await until(
      () => postedIn(channel),
      (posted) => posted.length === 2,
    );
    expect(postedIn(channel).every((posted) => posted.threadTs === ts)).toBe(true);
    expect(await conversationsOf(`${channel}:${ts}`)).toHaveLength(1);
  });

  it('sends a member’s reply from the inbox to the thread, and records that it went out', async () => {
    const channel = newChannel('D');
    await slack.deliver(
      connection.inboundUrl!,
      slack.eventCallback({ type: 'message', channel_type: 'im', user: ADA, text: 'I want a person', ts: slack.nextTs(), channel }),
    );
    const [conversation] = await until(
      () => conversationsOf(channel),
      (list) => list.length === 1,
    );
    // The person's name, looked up with users.info.
    const full = await parley.call<ConversationBody>('GET', `/conversations/${conversation!.id}`, { key: ws.key });
    expect(full.body.metadata).toMatchObject({ channel: { externalId: ADA, displayName: 'Ada' } });
    await until(
      () => postedIn(channel),
      (posted) => posted.length === 1,
    );
    const member = await parley.newMember(ws.id, 'member');
    const reply = await parley.call<{ id: string }>('POST', `/conversations/${conversation!.id}/messages`, {
      key: member.accessToken,
      body: { text: 'Hello Ada, **Grace** here & happy to help.' },
    });
    expect(reply.status).toBe(201);
    const posted = await until(
      () => postedIn(channel).find((each) => each.text.includes('Grace')),
      (found) => found !== undefined,
    );
    expect(posted).toMatchObject({ threadTs: undefined, text: 'Hello Ada, *Grace* here &amp; happy to help.' } satisfies Partial<PostedSlackMessage>);
    const stored = await until(
      () => parley.core.store.messages.find(ws.id, reply.body.id),
      (message) => message?.delivery?.state === 'sent',
    );
    expect(stored?.channelMessageId).toBe(`${channel}:${posted!.ts}`);
  });

  it('acknowledges a slash command privately at once and posts the answer in the channel', async () => {
    const channel = newChannel();
    const answer = await slack.deliver(connection.inboundUrl!, slack.slashCommand(channel, 'When do you open?'));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ response_type: 'ephemeral', text: 'Thinking…' });
    const [posted] = await until(
      () => postedIn(channel),
      (list) => list.length === 1,
    );
    expect(posted).toMatchObject({ threadTs: undefined });
    const [conversation] = await conversationsOf(channel);
    const full = await parley.call<ConversationBody>('GET', `/conversations/${conversation!.id}`, { key: ws.key });
    expect(full.body.messages.find((message) => message.from === 'human')?.text).toBe('When do you open?');

    const empty = await slack.deliver(connection.inboundUrl!, slack.slashCommand(channel, ''));
    expect(JSON.parse(empty.body)).toMatchObject({ response_type: 'ephemeral', text: expect.stringContaining('/ask') });
  });

  it('refuses unsigned, wrongly signed, stale and other connections’ requests before reading them, storing nothing', async () => {
    const channel = newChannel();
    const planted = mention(channel, slack.nextTs(), 'planted question');
    const url = connection.inboundUrl!;
    const refusals = [
      await slack.deliver(url, planted, { signature: null }),
      await slack.deliver(url, planted, { signature: 'v0=deadbeef' }),
      await slack.deliver(url, planted, { secret: OTHER_SIGNING_SECRET }),
      await slack.deliver(url, planted, { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 }),
      await slack.deliver(url, slack.slashCommand(channel, 'planted question'), { secret: OTHER_SIGNING_SECRET }),
    ];
    for (const refused of refusals) {
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.body)).toMatchObject({ error: 'UNAUTHORIZED' });
    }
    expect((await parley.call('POST', inboundPath('nonexistent'), { raw: JSON.stringify(planted) })).status).toBe(404);
    expect(await conversationsOf(`${channel}:${String(planted.event && (planted.event as { ts: string }).ts)}`)).toEqual([]);
    expect(JSON.stringify((await parley.call('GET', '/conversations', { key: ws.key })).body)).not.toContain('planted');
  });

  it('keeps workspaces apart: a request signed with one workspace’s secret cannot reach another’s connection', async () => {
    const other = await parley.newWorkspace();
    const otherAgent = (await parley.call<{ id: string }>('POST', '/agents', { key: other.key, body: { name: 'Other bot' } })).body.id;
    const otherConnection = (
      await parley.call<ChannelConnectionBody>('POST', `/agents/${otherAgent}/channels`, {
        key: other.key,
        body: { channel: 'slack', config: { botToken: FAKE_SLACK_BOT_TOKEN, signingSecret: OTHER_SIGNING_SECRET, apiBaseUrl: slack.url } },
      })
    ).body;
    const channel = newChannel();
    const ts = slack.nextTs();
    // Signed with A's secret, sent to B's URL; and B's to A's.
    expect((await slack.deliver(otherConnection.inboundUrl!, mention(channel, ts, 'cross A to B'))).status).toBe(401);
    expect((await slack.deliver(connection.inboundUrl!, mention(channel, ts, 'cross B to A'), { secret: OTHER_SIGNING_SECRET })).status).toBe(401);
    expect(await conversationsOf(`${channel}:${ts}`)).toEqual([]);
    expect(await conversationsOf(`${channel}:${ts}`, other.key)).toEqual([]);
    // A's connection is not B's to read or test.
    expect((await parley.call('GET', `/channels/${connection.id}`, { key: other.key })).status).toBe(403);
    expect((await parley.call('POST', `/channels/${connection.id}/test`, { key: other.key })).status).toBe(403);
    // B's own, properly signed, lands in B only.
    expect((await slack.deliver(otherConnection.inboundUrl!, mention(channel, ts, 'hello B'), { secret: OTHER_SIGNING_SECRET })).status).toBe(200);
    expect(
      await until(
        () => conversationsOf(`${channel}:${ts}`, other.key),
        (list) => list.length === 1,
      ),
    ).toHaveLength(1);
    expect(await conversationsOf(`${channel}:${ts}`)).toEqual([]);
  });

  it('keeps the bot token and the signing secret out of every answer and out of the database in clear', async () => {
    const text = JSON.stringify(seen);
    expect(text).not.toContain(FAKE_SLACK_BOT_TOKEN);
    expect(text).not.toContain(FAKE_SLACK_SIGNING_SECRET);
    const stored = await storedBytes(parley, 'channel_connection');
    expect(stored).not.toContain('FakeTokenForTestsOnly');
    expect(stored).not.toContain(FAKE_SLACK_SIGNING_SECRET);
  });
});
