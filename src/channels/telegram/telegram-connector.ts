import { setTimeout as sleep } from 'node:timers/promises';
import { Api, GrammyError, HttpError } from 'grammy';
import { BlockedUrlError } from '../../net/address-policy.js';
import {
  ChannelError,
  UnverifiedDeliveryError,
  headerOf,
  type ChannelConnector,
  type ConnectionCheck,
  type ConnectorConnection,
  type InboundChannelMessage,
  type InboundDelivery,
  type ReceivedDelivery,
  type OutgoingChannelMessage,
  type PollResult,
  type SentChannelMessage,
} from '../connector.js';
import { hostOf, networkReason } from '../network-failure.js';
import { sameSecret } from '../same-secret.js';
import { grammyFetch } from './grammy-fetch.js';
import { splitForTelegram, type TelegramPart } from './telegram-markdown.js';
import { parseTelegramUpdate } from './telegram-update.js';

/** A Telegram connection's settings, as the domain keeps them (defaults already applied). */
export interface TelegramSettings {
  mode: 'webhook' | 'polling';
  /** The Bot API root, `https://api.telegram.org` unless self-hosted or a test server. */
  apiBaseUrl: string;
}

/** The bot's token from @BotFather, and the webhook secret Parley made for the connection. */
export interface TelegramSecrets {
  botToken: string;
  secretToken: string;
}

export interface TelegramConnectorOptions {
  /** How the Bot API is reached (Parley's guarded fetch, through its outbound policy); grammy's own client otherwise. */
  fetch?: typeof fetch;
}

type TelegramConnection = ConnectorConnection<TelegramSettings, TelegramSecrets>;

const SECRET_HEADER = 'x-telegram-bot-api-secret-token';
// Only new messages: edits, reactions and the rest would wake Parley for nothing.
const ALLOWED_UPDATES = ['message'] as const;
// Telegram's own bound on a long poll's wait.
const MAX_POLL_SECONDS = 50;
// A call that takes longer than this is a network failure (grammy's default waits 500 s).
const CALL_TIMEOUT_SECONDS = 30;
// Telegram's 429 says how long to wait; a short wait is waited once, a longer one is the caller's to schedule.
const MAX_RETRY_AFTER_SECONDS = 5;
// What @BotFather gives: `<bot id>:<secret>`. Checked before use, as the token becomes part of every URL.
const BOT_TOKEN = /^\d{1,20}:[A-Za-z0-9_-]{20,100}$/;
// What setWebhook accepts as secret_token.
const SECRET_TOKEN = /^[A-Za-z0-9_-]{1,256}$/;

/**
 * Telegram's Bot API through grammy: a webhook Telegram calls with the connection's secret in a header, or
 * long polling (getUpdates) when Parley has no public https URL. Answers go out as MarkdownV2, cut at
 * Telegram's message length. Error messages are Parley's words: grammy's may hold the request URL, and with
 * it the bot token.
 */
export class TelegramConnector implements ChannelConnector<TelegramSettings, TelegramSecrets> {
  readonly #fetch: ReturnType<typeof grammyFetch> | undefined;

  constructor(options: TelegramConnectorOptions = {}) {
    this.#fetch = options.fetch ? grammyFetch(options.fetch) : undefined;
  }

  async check(connection: TelegramConnection, signal: AbortSignal): Promise<ConnectionCheck> {
    try {
      const me = await this.#api(connection).getMe(forGrammy(signal));
      const botUsername = me.username;
      return { ok: true, message: `Connected to @${botUsername}`, details: { botUsername, botId: String(me.id) } };
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      const failure = toChannelError(error, 'check the bot', connection);
      return { ok: false, message: failure.message };
    }
  }

  async activate(connection: TelegramConnection, signal: AbortSignal): Promise<void> {
    const api = this.#api(connection);
    try {
      if (connection.config.mode === 'polling') {
        // getUpdates is refused (409) while a webhook is set.
        await api.deleteWebhook({ drop_pending_updates: false }, forGrammy(signal));
        return;
      }
      const url = webhookUrl(connection);
      await api.setWebhook(
        url,
        { secret_token: webhookSecret(connection), allowed_updates: [...ALLOWED_UPDATES], drop_pending_updates: false },
        forGrammy(signal),
      );
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw toChannelError(error, connection.config.mode === 'polling' ? 'switch the bot to polling' : 'set the webhook', connection);
    }
  }

  async deactivate(connection: TelegramConnection, signal: AbortSignal): Promise<void> {
    try {
      await this.#api(connection).deleteWebhook({ drop_pending_updates: false }, forGrammy(signal));
    } catch {
      // Best effort: a revoked token or an unreachable Telegram delivers nothing anyway.
    }
  }

  pulls(connection: TelegramConnection): boolean {
    return connection.config.mode === 'polling';
  }

  receive(connection: TelegramConnection, delivery: InboundDelivery): ReceivedDelivery {
    const given = headerOf(delivery, SECRET_HEADER);
    if (given === undefined || !sameSecret(given, connection.secrets.secretToken)) throw new UnverifiedDeliveryError();
    let update: unknown;
    try {
      update = JSON.parse(delivery.body.toString('utf8'));
    } catch {
      return { messages: [] }; // Telegram's own delivery never is junk; nothing to answer in it either way
    }
    const message = parseTelegramUpdate(update);
    return { messages: message ? [message] : [] };
  }

  async poll(connection: TelegramConnection, cursor: string | null, waitMs: number, signal: AbortSignal): Promise<PollResult> {
    const offset = cursor === null ? undefined : Number(cursor);
    const seconds = Math.min(MAX_POLL_SECONDS, Math.max(0, Math.floor(waitMs / 1000)));
    let updates: { update_id: number }[];
    try {
      // The client waits longer than Telegram holds the request, or every quiet poll would end as a timeout.
      const api = this.#api(connection, seconds + CALL_TIMEOUT_SECONDS);
      updates = await api.getUpdates(
        { ...(offset !== undefined && Number.isSafeInteger(offset) ? { offset } : {}), timeout: seconds, allowed_updates: [...ALLOWED_UPDATES] },
        forGrammy(signal),
      );
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw toChannelError(error, 'fetch updates', connection);
    }
    // Telegram sends them in order; sorting costs nothing and keeps a conversation's messages in order regardless.
    const sorted = [...updates].sort((a, b) => a.update_id - b.update_id);
    const last = sorted.at(-1);
    return {
      messages: sorted.map(parseTelegramUpdate).filter((message): message is InboundChannelMessage => message !== undefined),
      // The next offset confirms everything up to the last update (Telegram forgets confirmed updates).
      cursor: last === undefined ? cursor : String(last.update_id + 1),
    };
  }

  async send(connection: TelegramConnection, message: OutgoingChannelMessage, signal: AbortSignal): Promise<SentChannelMessage> {
    const parts = splitForTelegram(message.text);
    if (parts.length === 0) throw new ChannelError('There is nothing to send: the message is empty', false);
    const api = this.#api(connection);
    const chatId = toChatId(message.channelExternalId);
    let lastId = 0;
    try {
      for (const part of parts) lastId = await this.#sendPart(api, chatId, part, signal);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw toChannelError(error, 'send the message', connection);
    }
    return { channelMessageId: String(lastId) };
  }

  async typing(connection: TelegramConnection, channelExternalId: string, signal: AbortSignal): Promise<void> {
    try {
      await this.#api(connection).sendChatAction(toChatId(channelExternalId), 'typing', {}, forGrammy(signal));
    } catch {
      // Best effort: the answer goes out all the same.
    }
  }

  /** One message; if Telegram cannot parse our MarkdownV2 after all, the same words unformatted. */
  async #sendPart(api: Api, chatId: number | string, part: TelegramPart, signal: AbortSignal): Promise<number> {
    try {
      const sent = await withShortRetry(() => api.sendMessage(chatId, part.markdownV2, { parse_mode: 'MarkdownV2' }, forGrammy(signal)), signal);
      return sent.message_id;
    } catch (error) {
      if (!(error instanceof GrammyError && error.error_code === 400 && /can't parse entities/i.test(error.description))) throw error;
    }
    const sent = await withShortRetry(() => api.sendMessage(chatId, part.plain, {}, forGrammy(signal)), signal);
    return sent.message_id;
  }

  #api(connection: TelegramConnection, timeoutSeconds = CALL_TIMEOUT_SECONDS): Api {
    if (!BOT_TOKEN.test(connection.secrets.botToken)) {
      throw new ChannelError('The bot token is not in the form @BotFather gives (digits, a colon, then letters and digits)', false);
    }
    // grammy refuses an apiRoot ending in '/'.
    return new Api(connection.secrets.botToken, {
      apiRoot: connection.config.apiBaseUrl.replace(/\/+$/, ''),
      timeoutSeconds,
      ...(this.#fetch ? { fetch: this.#fetch } : {}),
    });
  }
}

type GrammySignal = NonNullable<Parameters<Api['getMe']>[0]>;

/**
 * grammy's Node typings name the `abort-controller` polyfill's AbortSignal, which Node's own does not match
 * structurally; at run time grammy only listens for its 'abort' event, which Node's signal fires.
 */
function forGrammy(signal: AbortSignal): GrammySignal {
  return signal as unknown as GrammySignal;
}

/** Waits out one short 429 (Telegram's `retry_after`) and tries again; a long one is thrown to the caller. */
async function withShortRetry<T>(call: () => Promise<T>, signal: AbortSignal): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const retryAfter = error instanceof GrammyError && error.error_code === 429 ? error.parameters.retry_after : undefined;
    if (retryAfter === undefined || retryAfter > MAX_RETRY_AFTER_SECONDS) throw error;
    await sleep(retryAfter * 1000, undefined, { signal });
    return call();
  }
}

/** The inbound URL, which Telegram requires on https; a self-hosted or test Bot API server may call http. */
function webhookUrl(connection: TelegramConnection): string {
  const url = connection.inboundUrl;
  if (url === null) {
    throw new ChannelError('Telegram needs a public URL to deliver to: set PARLEY_PUBLIC_URL, or switch the connection to polling', false);
  }
  if (!url.startsWith('https://') && isTelegramItself(connection.config.apiBaseUrl)) {
    throw new ChannelError(
      'Telegram delivers only to https URLs, and Parley’s public URL is not one: make it https, or switch the connection to polling',
      false,
    );
  }
  return url;
}

function webhookSecret(connection: TelegramConnection): string {
  const secret = connection.secrets.secretToken;
  if (!SECRET_TOKEN.test(secret)) throw new ChannelError('The webhook secret is not one Telegram accepts (1–256 letters, digits, _ or -)', false);
  return secret;
}

function isTelegramItself(apiBaseUrl: string): boolean {
  try {
    return new URL(apiBaseUrl).hostname === 'api.telegram.org';
  } catch {
    return true;
  }
}

/** Chat ids are numbers to Telegram (negative for groups); a username-like id is passed on as it is. */
function toChatId(channelExternalId: string): number | string {
  const id = Number(channelExternalId);
  return /^-?\d+$/.test(channelExternalId) && Number.isSafeInteger(id) ? id : channelExternalId;
}

/**
 * Telegram's refusal or the network's failure in Parley's words. grammy's messages are never passed on (a
 * network error's holds the URL, token included); Telegram's `description` is, with the token cut out.
 */
function toChannelError(error: unknown, action: string, connection: TelegramConnection): ChannelError {
  if (error instanceof ChannelError) return error;
  const redact = (text: string) => text.split(connection.secrets.botToken).join('<bot token>');
  if (error instanceof GrammyError) {
    const said = redact(error.description);
    const code = error.error_code;
    // Telegram answers 404 to a token that names no bot.
    if (code === 401 || code === 404) return new ChannelError('Telegram refused the bot token', false);
    if (code === 403) return new ChannelError(`Telegram refused to ${action}: the bot was blocked or removed from the chat (${said})`, false);
    if (code === 429) {
      const wait = error.parameters.retry_after;
      return new ChannelError(`Telegram asks to slow down${wait === undefined ? '' : ` for ${wait} s`} before it will ${action}`, true);
    }
    // Another client polls the same bot, or a webhook is set: over once that is settled.
    if (code === 409) return new ChannelError(`Telegram refused to ${action}: ${said}`, true);
    if (code >= 500) return new ChannelError(`Telegram failed to ${action} (${code}); it will be tried again`, true);
    if (/chat not found/i.test(error.description)) return new ChannelError(`Telegram does not know the chat: the bot cannot ${action} there`, false);
    return new ChannelError(`Telegram refused to ${action}: ${said}`, false);
  }
  const host = hostOf(connection.config.apiBaseUrl);
  if (error instanceof HttpError && error.error instanceof BlockedUrlError) {
    return new ChannelError(`Parley’s outbound policy does not allow connecting to ${host}`, false);
  }
  if (error instanceof HttpError) {
    return new ChannelError(`Telegram could not be reached at ${host}${networkReason(error.error)} to ${action}`, true);
  }
  return new ChannelError(`Telegram’s answer could not be read when trying to ${action}`, true);
}
