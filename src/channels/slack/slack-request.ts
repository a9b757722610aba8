import { isJsonObject } from '../../text/json-object.js';
import type { ChannelIdentity, InboundChannelMessage } from '../connector.js';
import { fromSlackText } from './slack-mrkdwn.js';
import { isSlackChannelId, isSlackTs, slackThreadId } from './slack-thread.js';

/** What one verified request from Slack asks of Parley. */
export type SlackRequest =
  /** Slack checking the Request URL when it is saved in Event Subscriptions: answered with its challenge. */
  | { kind: 'url_verification'; challenge: string }
  /** A question: a mention of the bot in a channel, a direct message, or a slash command's text. */
  | { kind: 'message'; message: InboundChannelMessage; slashCommand?: string }
  /** A slash command without a question: answered with how to use it. */
  | { kind: 'empty_command'; slashCommand: string }
  /** Anything else: another bot, an edit, an event not subscribed to, an interaction. */
  | { kind: 'ignored' };

const IGNORED: SlackRequest = { kind: 'ignored' };
const USER = /^[UW][A-Z0-9]{2,40}$/;

/**
 * One request from Slack, already verified: an Events API callback (JSON) or a slash command (a form). Never
 * throws: the body comes from outside, and whatever is not a question is ignored.
 */
export function parseSlackRequest(contentType: string, body: string): SlackRequest {
  if (contentType.startsWith('application/x-www-form-urlencoded')) return parseSlashCommand(new URLSearchParams(body));
  let envelope: unknown;
  try {
    envelope = JSON.parse(body);
  } catch {
    return IGNORED;
  }
  if (!isJsonObject(envelope)) return IGNORED;
  if (envelope.type === 'url_verification' && typeof envelope.challenge === 'string') {
    return { kind: 'url_verification', challenge: envelope.challenge };
  }
  if (envelope.type !== 'event_callback' || !isJsonObject(envelope.event)) return IGNORED;
  const message = parseEvent(envelope.event, botUserOf(envelope), optionalString(envelope.team_id));
  return message === undefined ? IGNORED : { kind: 'message', message };
}

/**
 * `app_mention` in a channel (answered in the thread of the mention) and `message` in a direct message (answered
 * in the conversation, or in its thread when written in one). Bots, the bot itself, edits, joins and every
 * other subtype are not questions: answering them would at best be noise, at worst a loop between bots.
 */
function parseEvent(event: Record<string, unknown>, botUserId: string | undefined, teamId: string | undefined): InboundChannelMessage | undefined {
  const { channel, user, ts, text } = event;
  const mention = event.type === 'app_mention';
  const direct = event.type === 'message' && event.channel_type === 'im';
  if (!mention && !direct) return undefined;
  if (event.subtype !== undefined || event.bot_id !== undefined || event.bot_profile !== undefined) return undefined;
  if (!isSlackChannelId(channel) || typeof user !== 'string' || !USER.test(user) || user === botUserId || !isSlackTs(ts)) return undefined;
  if (typeof text !== 'string') return undefined;
  const words = fromSlackText(mention && botUserId === undefined ? withoutLeadingMention(text) : text, botUserId);
  if (words.length === 0) return undefined;
  const threadTs = isSlackTs(event.thread_ts) ? event.thread_ts : undefined;
  // A mention opens a thread under itself; a direct message stays in the conversation unless written in a thread.
  const thread = mention ? { channel, threadTs: threadTs ?? ts } : threadTs === undefined ? { channel } : { channel, threadTs };
  const context: Record<string, string> = { channelType: direct ? 'im' : (optionalString(event.channel_type) ?? 'channel'), slackChannel: channel };
  if (teamId !== undefined) context.teamId = teamId;
  return {
    channelExternalId: slackThreadId(thread),
    // A message's ts is unique in its channel: an event Slack delivers again is stored once.
    channelMessageId: `${channel}:${ts}`,
    text: words,
    from: identityOf(user, event.user_profile),
    attachments: [],
    context,
    inReplyTo: threadTs === undefined || threadTs === ts ? [] : [`${channel}:${threadTs}`],
  };
}

/** A slash command (`/ask When do you open?`): its text is the question, asked in the channel it was typed in. */
function parseSlashCommand(form: URLSearchParams): SlackRequest {
  const slashCommand = form.get('command');
  const channel = form.get('channel_id');
  const user = form.get('user_id') ?? '';
  const triggerId = form.get('trigger_id');
  if (slashCommand === null || !slashCommand.startsWith('/') || !isSlackChannelId(channel) || !USER.test(user) || !triggerId) return IGNORED;
  const words = fromSlackText(form.get('text') ?? '');
  if (words.length === 0) return { kind: 'empty_command', slashCommand };
  const userName = form.get('user_name') || undefined;
  const context: Record<string, string> = { channelType: 'command', slackChannel: channel, command: slashCommand };
  for (const [field, name] of [
    ['channel_name', 'channelName'],
    ['team_id', 'teamId'],
    ['team_domain', 'teamDomain'],
  ] as const) {
    const value = form.get(field);
    if (value) context[name] = value;
  }
  return {
    kind: 'message',
    slashCommand,
    message: {
      // A command has no message to thread under: its answer goes to the channel itself.
      channelExternalId: slackThreadId({ channel }),
      // Slack makes a trigger id per invocation.
      channelMessageId: `${channel}:command:${triggerId}`,
      text: words,
      from: { externalId: user, ...(userName === undefined ? {} : { username: userName, displayName: userName }) },
      attachments: [],
      context,
      inReplyTo: [],
    },
  };
}

/** The bot's own user id, as Slack names the installation the event is for. */
function botUserOf(envelope: Record<string, unknown>): string | undefined {
  const authorizations = Array.isArray(envelope.authorizations) ? envelope.authorizations : [];
  for (const each of authorizations) {
    if (isJsonObject(each) && each.is_bot === true && typeof each.user_id === 'string') return each.user_id;
  }
  return undefined;
}

/** Without the bot's id, the mention an `app_mention` starts with is taken to be the bot's. */
const withoutLeadingMention = (text: string): string => text.replace(/^\s*<@[A-Z0-9]+(?:\|[^>]*)?>/, '');

/** Who wrote: the user id, with the names Slack sometimes sends along (`user_profile`). */
function identityOf(userId: string, profile: unknown): ChannelIdentity {
  if (!isJsonObject(profile)) return { externalId: userId };
  const displayName = optionalString(profile.display_name) ?? optionalString(profile.real_name);
  const username = optionalString(profile.name);
  return {
    externalId: userId,
    ...(displayName === undefined ? {} : { displayName }),
    ...(username === undefined ? {} : { username }),
  };
}

const optionalString = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);
