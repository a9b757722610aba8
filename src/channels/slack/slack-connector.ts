import { setTimeout as sleep } from 'node:timers/promises';
import {
  LogLevel,
  WebAPIHTTPError,
  WebAPIPlatformError,
  WebAPIRateLimitedError,
  WebAPIRequestError,
  WebClient,
  type FetchFunction,
  type Logger,
} from '@slack/web-api';
import { LRUCache } from 'lru-cache';
import { BlockedUrlError } from '../../net/address-policy.js';
import {
  ChannelError,
  type ChannelConnector,
  type ChannelIdentity,
  type ConnectionCheck,
  type ConnectorConnection,
  type InboundChannelMessage,
  type InboundDelivery,
  type OutgoingChannelMessage,
  type ReceivedDelivery,
  type SentChannelMessage,
} from '../connector.js';
import { hostOf, networkReason } from '../network-failure.js';
import { splitForSlack } from './slack-mrkdwn.js';
import { parseSlackRequest } from './slack-request.js';
import { verifySlackRequest } from './slack-signature.js';
import { parseSlackThreadId } from './slack-thread.js';

/** A Slack connection's settings, as the domain keeps them (defaults applied: the base ends in '/'). */
export interface SlackSettings {
  /** The Web API's base, `https://slack.com/api/` unless a test server. */
  apiBaseUrl: string;
}

/** The app's bot token (`xoxb-…`) and the signing secret Slack signs its requests with. */
export interface SlackSecrets {
  botToken: string;
  signingSecret: string;
}

export interface SlackConnectorOptions {
  /** How the Web API is reached (Parley's guarded fetch, through its outbound policy); the global fetch otherwise. */
  fetch?: typeof fetch;
}

type SlackConnection = ConnectorConnection<SlackSettings, SlackSecrets>;

// A call that takes longer than this is a network failure.
const CALL_TIMEOUT_MS = 30_000;
// Slack waits 3 s for its answer: a name looked up meanwhile gets a small share of that.
const NAME_LOOKUP_MS = 1_000;
// Slack's 429 says how long to wait; a short wait is waited once, a longer one is the job queue's to schedule.
const MAX_RETRY_AFTER_SECONDS = 5;
const BOT_TOKEN = /^xoxb-[A-Za-z0-9-]{1,4000}$/;
const JSON_TYPE = 'application/json; charset=utf-8';

// The client's own log would name URLs and Slack's raw answers: Parley says what failed in its own words.
const SILENT: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  setLevel: () => undefined,
  getLevel: () => LogLevel.ERROR,
  setName: () => undefined,
};

/**
 * Slack through `@slack/web-api`: the Events API (`app_mention` in channels, `message` in direct messages) and
 * a slash command delivered to the connection's Request URL, each request checked against the app's signing
 * secret; answers posted with chat.postMessage in the thread of the question, as mrkdwn cut under Slack's
 * length. The client's own retries are off (the job queue retries a send) and a rate-limited call is not
 * queued inside it: a short Retry-After is waited once, a longer one is a retryable failure.
 */
export class SlackConnector implements ChannelConnector<SlackSettings, SlackSecrets> {
  readonly #fetch: typeof fetch;
  // Names of people, by connection and user id: looked up once an hour rather than on every message.
  readonly #names = new LRUCache<string, ChannelIdentity>({ max: 5_000, ttl: 60 * 60 * 1000 });

  constructor(options: SlackConnectorOptions = {}) {
    this.#fetch = options.fetch ?? fetch;
  }

  async check(connection: SlackConnection, signal: AbortSignal): Promise<ConnectionCheck> {
    try {
      const auth = await this.#client(connection, signal).auth.test();
      const details: Record<string, string> = {};
      for (const [name, value] of [
        ['botUsername', auth.user],
        ['botUserId', auth.user_id],
        ['team', auth.team],
        ['teamId', auth.team_id],
      ] as const) {
        if (value) details[name] = value;
      }
      return { ok: true, message: `Connected to ${auth.team ?? 'the workspace'} as @${auth.user ?? 'the bot'}`, details };
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      return { ok: false, message: toChannelError(error, 'check the bot token', connection).message };
    }
  }

  /** Nothing to tell Slack: the Request URL is pasted in the app's settings, where Slack checks it (url_verification). */
  async activate(): Promise<void> {}

  /** Nothing to tell Slack either: removing the app's Request URL, or the app, is the person's to do there. */
  async deactivate(): Promise<void> {}

  pulls(): boolean {
    return false;
  }

  async receive(connection: SlackConnection, delivery: InboundDelivery): Promise<ReceivedDelivery> {
    verifySlackRequest(delivery, connection.secrets.signingSecret);
    const contentType = [delivery.headers['content-type']].flat()[0] ?? '';
    const request = parseSlackRequest(contentType, delivery.body.toString('utf8'));
    switch (request.kind) {
      case 'url_verification':
        return { messages: [], reply: { contentType: JSON_TYPE, body: JSON.stringify({ challenge: request.challenge }) } };
      case 'empty_command':
        return { messages: [], reply: ephemeral(`Ask a question after the command, for example: ${request.slashCommand} When are you open?`) };
      case 'ignored':
        return { messages: [] };
      case 'message': {
        const message = await this.#withName(connection, request.message);
        // A slash command is answered at once, or Slack shows the person an error; the answer follows in the channel.
        return request.slashCommand === undefined ? { messages: [message] } : { messages: [message], reply: ephemeral('Thinking…') };
      }
    }
  }

  async send(connection: SlackConnection, message: OutgoingChannelMessage, signal: AbortSignal): Promise<SentChannelMessage> {
    const thread = parseSlackThreadId(message.channelExternalId);
    if (thread === undefined) throw new ChannelError('The conversation’s Slack thread is not one Parley knows how to answer', false);
    const parts = splitForSlack(message.text);
    if (parts.length === 0) throw new ChannelError('There is nothing to send: the message is empty', false);
    const client = this.#client(connection, signal);
    let lastTs = '';
    try {
      for (const text of parts) {
        const posted = await withShortRetry(
          () => client.chat.postMessage({ channel: thread.channel, text, mrkdwn: true, ...(thread.threadTs ? { thread_ts: thread.threadTs } : {}) }),
          signal,
        );
        lastTs = posted.ts ?? lastTs;
      }
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw toChannelError(error, 'post the message', connection);
    }
    return { channelMessageId: `${thread.channel}:${lastTs}` };
  }

  /** The person's name from users.info, when the event did not carry it; best effort, and quick (Slack waits for the answer). */
  async #withName(connection: SlackConnection, message: InboundChannelMessage): Promise<InboundChannelMessage> {
    if (message.from.displayName !== undefined) return message;
    const key = `${connection.id}:${message.from.externalId}`;
    let from = this.#names.get(key);
    if (from === undefined) {
      try {
        const { user } = await this.#client(connection, AbortSignal.timeout(NAME_LOOKUP_MS)).users.info({ user: message.from.externalId });
        const profile = user?.profile;
        const displayName = profile?.display_name || profile?.real_name || user?.real_name || user?.name || undefined;
        from = {
          externalId: message.from.externalId,
          ...(displayName === undefined ? {} : { displayName }),
          ...(user?.name ? { username: user.name } : {}),
          ...(profile?.first_name ? { firstName: profile.first_name } : {}),
          ...(profile?.last_name ? { lastName: profile.last_name } : {}),
          ...(profile?.email ? { email: profile.email } : {}),
        };
        this.#names.set(key, from);
      } catch {
        return message; // without the scope (users:read), or Slack slow: the user id is who wrote
      }
    }
    return { ...message, from: { ...message.from, ...from } };
  }

  #client(connection: SlackConnection, signal: AbortSignal): WebClient {
    if (!BOT_TOKEN.test(connection.secrets.botToken)) {
      throw new ChannelError('The bot token is not a Slack bot token (it starts with xoxb-)', false);
    }
    return new WebClient(connection.secrets.botToken, {
      slackApiUrl: connection.config.apiBaseUrl,
      fetch: fetchFollowing(this.#fetch, signal),
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
      allowAbsoluteUrls: false,
      logger: SILENT,
    });
  }
}

/** The Web API's answer to a slash command, seen only by the person who typed it. */
const ephemeral = (text: string): ReceivedDelivery['reply'] => ({
  contentType: JSON_TYPE,
  body: JSON.stringify({ response_type: 'ephemeral', text }),
});

/** A fetch whose requests end when `signal` aborts or after the call timeout, whichever comes first. */
function fetchFollowing(base: typeof fetch, signal: AbortSignal): FetchFunction {
  return (url, init) =>
    base(url, { ...init, signal: AbortSignal.any([signal, AbortSignal.timeout(CALL_TIMEOUT_MS), ...(init?.signal ? [init.signal] : [])]) });
}

/** Waits out one short 429 (Slack's Retry-After) and tries again; a long one is thrown to the caller. */
async function withShortRetry<T>(call: () => Promise<T>, signal: AbortSignal): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof WebAPIRateLimitedError) || error.retryAfter > MAX_RETRY_AFTER_SECONDS) throw error;
    await sleep(error.retryAfter * 1000, undefined, { signal });
    return call();
  }
}

// Slack's error codes that a new attempt may get past.
const PASSING = new Set(['ratelimited', 'internal_error', 'fatal_error', 'service_unavailable', 'request_timeout', 'team_added_to_org']);
const REFUSED_TOKEN = new Set(['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'token_expired', 'no_permission']);

/**
 * Slack's refusal or the network's failure in Parley's words. Slack's error codes are passed on (they are
 * words such as `channel_not_found`, never a secret); the client's messages are not (they hold the URL).
 */
function toChannelError(error: unknown, action: string, connection: SlackConnection): ChannelError {
  if (error instanceof ChannelError) return error;
  if (error instanceof WebAPIRateLimitedError) {
    return new ChannelError(`Slack asks to slow down for ${error.retryAfter} s before it will ${action}`, true);
  }
  if (error instanceof WebAPIPlatformError) {
    const code = error.data.error;
    if (REFUSED_TOKEN.has(code)) return new ChannelError(`Slack refused the bot token (${code})`, false);
    if (code === 'missing_scope') {
      const data: Record<string, unknown> = { ...error.data };
      const needed = typeof data.needed === 'string' ? data.needed : 'a scope';
      return new ChannelError(`Slack refused to ${action}: the app lacks the ${needed} scope (OAuth & Permissions), then reinstall it`, false);
    }
    if (code === 'not_in_channel' || code === 'channel_not_found') {
      return new ChannelError(`Slack refused to ${action}: the bot is not in that channel (${code}); invite it with /invite`, false);
    }
    return new ChannelError(`Slack refused to ${action} (${code})`, PASSING.has(code));
  }
  const host = hostOf(connection.config.apiBaseUrl);
  if (error instanceof WebAPIHTTPError) {
    return new ChannelError(`Slack answered ${error.statusCode} when trying to ${action}`, error.statusCode >= 500);
  }
  if (error instanceof WebAPIRequestError && error.original instanceof BlockedUrlError) {
    return new ChannelError(`Parley’s outbound policy does not allow connecting to ${host}`, false);
  }
  if (error instanceof WebAPIRequestError)
    return new ChannelError(`Slack could not be reached at ${host}${networkReason(error.original)} to ${action}`, true);
  return new ChannelError(`Slack’s answer could not be read when trying to ${action}`, true);
}
