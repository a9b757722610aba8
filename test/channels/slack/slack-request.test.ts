import { describe, expect, it } from 'vitest';
import { parseSlackRequest } from '../../../src/channels/slack/slack-request.js';
import { parseSlackThreadId, slackThreadId } from '../../../src/channels/slack/slack-thread.js';

const BOT = 'U0BOT00001';
const JSON_TYPE = 'application/json';
const FORM = 'application/x-www-form-urlencoded';

const callback = (event: Record<string, unknown>) =>
  JSON.stringify({
    type: 'event_callback',
    team_id: 'T0TEAM',
    event_id: 'Ev01',
    authorizations: [{ team_id: 'T0TEAM', user_id: BOT, is_bot: true }],
    event,
  });

const mention = (overrides: Record<string, unknown> = {}) => ({
  type: 'app_mention',
  user: 'U0ADA00001',
  text: `<@${BOT}> When do you open?`,
  ts: '1700000000.000100',
  channel: 'C0SUPPORT',
  ...overrides,
});

const direct = (overrides: Record<string, unknown> = {}) => ({
  type: 'message',
  channel_type: 'im',
  user: 'U0ADA00001',
  text: 'When do you open?',
  ts: '1700000000.000200',
  channel: 'D0ADA',
  ...overrides,
});

describe('Slack requests', () => {
  it('answers url_verification with its challenge', () => {
    expect(parseSlackRequest(JSON_TYPE, JSON.stringify({ type: 'url_verification', token: 't', challenge: 'abc123' }))).toEqual({
      kind: 'url_verification',
      challenge: 'abc123',
    });
  });

  it('reads a mention in a channel as a question in the thread of the mention, without the mention', () => {
    expect(parseSlackRequest(JSON_TYPE, callback(mention()))).toEqual({
      kind: 'message',
      message: {
        channelExternalId: 'C0SUPPORT:1700000000.000100',
        channelMessageId: 'C0SUPPORT:1700000000.000100',
        text: 'When do you open?',
        from: { externalId: 'U0ADA00001' },
        attachments: [],
        context: { channelType: 'channel', slackChannel: 'C0SUPPORT', teamId: 'T0TEAM' },
        inReplyTo: [],
      },
    });
  });

  it('keeps a mention inside a thread in that thread', () => {
    const request = parseSlackRequest(JSON_TYPE, callback(mention({ ts: '1700000005.000100', thread_ts: '1700000000.000100' })));
    expect(request).toMatchObject({
      kind: 'message',
      message: {
        channelExternalId: 'C0SUPPORT:1700000000.000100',
        channelMessageId: 'C0SUPPORT:1700000005.000100',
        inReplyTo: ['C0SUPPORT:1700000000.000100'],
      },
    });
  });

  it('reads a direct message as a question in the direct conversation, or in its thread', () => {
    expect(parseSlackRequest(JSON_TYPE, callback(direct()))).toMatchObject({
      kind: 'message',
      message: { channelExternalId: 'D0ADA', channelMessageId: 'D0ADA:1700000000.000200', text: 'When do you open?', context: { channelType: 'im' } },
    });
    expect(parseSlackRequest(JSON_TYPE, callback(direct({ thread_ts: '1700000000.000001' })))).toMatchObject({
      message: { channelExternalId: 'D0ADA:1700000000.000001' },
    });
  });

  it('takes the names Slack sends along with a message', () => {
    const request = parseSlackRequest(JSON_TYPE, callback(direct({ user_profile: { display_name: '', real_name: 'Ada Lovelace', name: 'ada' } })));
    expect(request).toMatchObject({ message: { from: { externalId: 'U0ADA00001', displayName: 'Ada Lovelace', username: 'ada' } } });
  });

  it.each([
    ['a bot’s message', direct({ bot_id: 'B0OTHER' })],
    ['a bot_message', direct({ subtype: 'bot_message', user: undefined })],
    ['the bot’s own message', direct({ user: BOT })],
    ['an edit', direct({ subtype: 'message_changed' })],
    ['a join', { ...mention(), type: 'message', subtype: 'channel_join', channel_type: 'channel' }],
    ['a message in a channel (only mentions are read there)', { ...direct(), channel_type: 'channel', channel: 'C0SUPPORT' }],
    ['a mention with nothing else', mention({ text: `<@${BOT}>` })],
    ['a reaction', { type: 'reaction_added', user: 'U0ADA00001', reaction: 'tada', item: {} }],
    ['a malformed ts', direct({ ts: 'yesterday' })],
    ['a channel id that is not Slack’s', direct({ channel: 'D0:1' })],
  ])('ignores %s', (_name, event) => {
    expect(parseSlackRequest(JSON_TYPE, callback(event as Record<string, unknown>))).toEqual({ kind: 'ignored' });
  });

  it('ignores junk and envelopes of other kinds', () => {
    for (const body of ['', 'not json', '[]', '{"type":"app_rate_limited"}', '{"type":"event_callback"}']) {
      expect(parseSlackRequest(JSON_TYPE, body)).toEqual({ kind: 'ignored' });
    }
    expect(parseSlackRequest(FORM, 'payload=%7B%22type%22%3A%22block_actions%22%7D')).toEqual({ kind: 'ignored' });
  });

  it('drops the leading mention of an app_mention even without the bot’s id', () => {
    const body = JSON.stringify({ type: 'event_callback', event: mention({ text: '<@U0SOMEBOT> hi <@U0ADA00002>' }) });
    expect(parseSlackRequest(JSON_TYPE, body)).toMatchObject({ message: { text: 'hi @U0ADA00002' } });
  });

  it('reads a slash command’s text as a question in its channel', () => {
    const form = new URLSearchParams({
      command: '/ask',
      text: 'When do you open &amp; close?',
      channel_id: 'C0SUPPORT',
      channel_name: 'support',
      user_id: 'U0ADA00001',
      user_name: 'ada',
      team_id: 'T0TEAM',
      team_domain: 'shop',
      trigger_id: '123.456.abc',
      response_url: 'https://hooks.slack.com/commands/T0TEAM/1/x',
    });
    expect(parseSlackRequest(`${FORM}; charset=utf-8`, form.toString())).toEqual({
      kind: 'message',
      slashCommand: '/ask',
      message: {
        channelExternalId: 'C0SUPPORT',
        channelMessageId: 'C0SUPPORT:command:123.456.abc',
        text: 'When do you open & close?',
        from: { externalId: 'U0ADA00001', username: 'ada', displayName: 'ada' },
        attachments: [],
        context: { channelType: 'command', slackChannel: 'C0SUPPORT', command: '/ask', channelName: 'support', teamId: 'T0TEAM', teamDomain: 'shop' },
        inReplyTo: [],
      },
    });
    form.set('text', '  ');
    expect(parseSlackRequest(FORM, form.toString())).toEqual({ kind: 'empty_command', slashCommand: '/ask' });
    form.delete('trigger_id');
    expect(parseSlackRequest(FORM, form.toString())).toEqual({ kind: 'ignored' });
  });
});

describe('Slack threads as channelExternalId', () => {
  it('round-trips a channel and a thread', () => {
    expect(slackThreadId({ channel: 'C0SUPPORT' })).toBe('C0SUPPORT');
    expect(parseSlackThreadId(slackThreadId({ channel: 'C0SUPPORT', threadTs: '1700000000.000100' }))).toEqual({
      channel: 'C0SUPPORT',
      threadTs: '1700000000.000100',
    });
    for (const id of ['', 'c0lower', 'C0:x', 'C0:1.2:3', '42']) expect(parseSlackThreadId(id)).toBeUndefined();
  });
});
