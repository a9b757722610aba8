import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { closeServer, listenOnLoopback, readBody } from './loopback-server.js';

/** What the fake's sendMessage recorded. */
export interface SentTelegramMessage {
  chatId: string;
  text: string;
  parseMode: string | undefined;
  messageId: number;
}

/** A scripted refusal for the next call of one method. */
export interface TelegramFailure {
  status: number;
  description: string;
  retryAfter?: number;
}

/** Telegram's parse of a MarkdownV2 text: what the message shows, or Telegram's refusal. */
export type MarkdownV2Result = { ok: true; text: string } | { ok: false; description: string };

/** The token the fake knows unless told another: the form @BotFather gives. */
export const FAKE_BOT_TOKEN = '123456789:AAFakeTokenForTestsOnly_abcdefghij';

const RESERVED_OUTSIDE = new Set('_*[]()~`>#+-=|{}.!');
const ENTITY_NAMES: Record<string, string> = { '*': 'Bold', _: 'Italic', __: 'Underline', '~': 'Strikethrough', '||': 'Spoiler', '[': 'TextUrl' };

/**
 * Telegram's MarkdownV2 rules, as its servers apply them: outside entities every reserved character must be
 * escaped with `\`; inside code and pre only `` ` `` and `\` are special; a link's URL ends at an unescaped
 * `)`; an entity left open refuses the message. Offsets in messages are UTF-16 positions here (Telegram's are
 * bytes), which the tests do not compare.
 */
export function parseMarkdownV2(source: string): MarkdownV2Result {
  const refuse = (what: string): MarkdownV2Result => ({ ok: false, description: `Bad Request: can't parse entities: ${what}` });
  const open: { marker: string; at: number }[] = [];
  let text = '';
  let i = 0;
  while (i < source.length) {
    const char = source[i] ?? '';
    const next = source[i + 1] ?? '';
    if (char === '\\' && next !== '' && next.charCodeAt(0) >= 1 && next.charCodeAt(0) <= 126) {
      text += next;
      i += 2;
      continue;
    }
    if (char === '`') {
      const pre = source.startsWith('```', i);
      const start = i + (pre ? 3 : 1);
      let j = start;
      let content = '';
      for (;;) {
        if (j >= source.length) return refuse(`Can't find end of ${pre ? 'Pre' : 'Code'} entity at byte offset ${i}`);
        const c = source[j] ?? '';
        if (c === '\\' && j + 1 < source.length) {
          content += source[j + 1];
          j += 2;
          continue;
        }
        if (pre ? source.startsWith('```', j) : c === '`') break;
        content += c;
        j++;
      }
      if (pre) {
        // The first line is the language when a line break follows it.
        const newline = content.indexOf('\n');
        if (newline >= 0 && /^[\w+#-]*$/.test(content.slice(0, newline))) content = content.slice(newline + 1);
      }
      text += content;
      i = j + (pre ? 3 : 1);
      continue;
    }
    const marker = char === '_' && next === '_' ? '__' : char === '|' && next === '|' ? '||' : char;
    if (marker === '*' || marker === '_' || marker === '__' || marker === '~' || marker === '||') {
      const top = open.at(-1);
      if (top?.marker === marker) open.pop();
      else if (open.some((o) => o.marker === marker)) return refuse(`Can't find end of ${ENTITY_NAMES[marker]} entity at byte offset ${i}`);
      else open.push({ marker, at: i });
      i += marker.length;
      continue;
    }
    if (char === '[') {
      open.push({ marker: '[', at: i });
      i++;
      continue;
    }
    if (char === ']' && open.at(-1)?.marker === '[') {
      open.pop();
      i++;
      if (source[i] === '(') {
        let j = i + 1;
        let url = '';
        for (;;) {
          if (j >= source.length) return refuse(`Can't find end of a URL at byte offset ${i}`);
          const c = source[j] ?? '';
          if (c === '\\' && j + 1 < source.length) {
            url += source[j + 1];
            j += 2;
            continue;
          }
          if (c === ')') break;
          url += c;
          j++;
        }
        if (!/^(https?:\/\/|mailto:|tg:\/\/)\S+$/.test(url)) return refuse(`Wrong HTTP URL specified`);
        i = j + 1;
      }
      continue;
    }
    if (char === '>' && (i === 0 || source[i - 1] === '\n')) {
      i++; // a blockquote line
      continue;
    }
    if (RESERVED_OUTSIDE.has(char)) return refuse(`Character '${char}' is reserved and must be escaped with the preceding '\\'`);
    text += char;
    i++;
  }
  const unclosed = open.at(-1);
  if (unclosed) return refuse(`Can't find end of ${ENTITY_NAMES[unclosed.marker]} entity at byte offset ${unclosed.at}`);
  return { ok: true, text };
}

type Params = Record<string, unknown>;
type Answer = { status: number; body: unknown };

interface Waiter {
  offset: number;
  wake: () => void;
}

/**
 * The Bot API as grammy calls it (`POST /bot<token>/<method>`, JSON, form or query parameters), on a real
 * loopback port: the connector's own client code runs against it. Keeps one bot's state: its webhook, the
 * updates not yet confirmed (getUpdates long-polls and honours `offset` as Telegram does), the chats it may
 * write to, and what it sent. Unscripted methods answer 404, as Telegram does.
 */
export class FakeTelegramBotApi {
  readonly sent: SentTelegramMessage[] = [];
  readonly chatActions: { chatId: string; action: string }[] = [];
  /** Every call, in order, by method name. */
  readonly calls: { method: string; params: Params }[] = [];
  webhook: { url: string; secretToken: string | undefined; allowedUpdates: unknown } | null = null;
  /** Chats the bot may send to; anyone who wrote (see {@link pushUpdate}) joins. */
  readonly chats = new Set<string>();
  readonly bot = { id: 123456789, username: 'parley_test_bot', first_name: 'Parley Test' };
  #updates: { update_id: number }[] = [];
  #nextUpdateId = 1;
  #nextMessageId = 1;
  #failures = new Map<string, TelegramFailure[]>();
  #waiters = new Set<Waiter>();
  readonly #sendListeners = new Set<(message: SentTelegramMessage, at: number) => void>();
  #url = '';
  readonly #server: Server;

  constructor(readonly token = FAKE_BOT_TOKEN) {
    this.#server = createServer((req, res) => {
      void this.#serve(req, res).catch((error: unknown) => {
        console.error('fake Telegram Bot API failed:', error);
        reply(res, { status: 500, body: { ok: false, error_code: 500, description: 'Internal Server Error' } });
      });
    });
  }

  /** Starts listening; answers the API root to give grammy (`apiRoot`). */
  async start(): Promise<string> {
    this.#url = await listenOnLoopback(this.#server);
    return this.#url;
  }

  get url(): string {
    return this.#url;
  }

  async close(): Promise<void> {
    for (const waiter of this.#waiters) waiter.wake();
    await closeServer(this.#server);
  }

  /** An update Telegram received for the bot (its `update_id` given, or the next); wakes a waiting getUpdates. */
  pushUpdate(update: Params): number {
    const id = typeof update.update_id === 'number' ? update.update_id : this.#nextUpdateId++;
    this.#nextUpdateId = Math.max(this.#nextUpdateId, id + 1);
    this.#updates.push({ ...update, update_id: id });
    const message = update.message as { chat?: { id?: unknown } } | undefined;
    if (message?.chat?.id !== undefined) this.chats.add(String(message.chat.id));
    for (const waiter of this.#waiters) waiter.wake();
    return id;
  }

  /**
   * The next message the bot sends to `chatId`, with the wall-clock time (`Date.now()`) the fake took it:
   * call before the message that causes it is handed over. Rejects after `timeoutMs`.
   */
  nextSent(chatId: string, timeoutMs = 20_000): Promise<{ message: SentTelegramMessage; at: number }> {
    return new Promise((resolve, reject) => {
      const listener = (message: SentTelegramMessage, at: number) => {
        if (message.chatId !== chatId) return;
        clearTimeout(timer);
        this.#sendListeners.delete(listener);
        resolve({ message, at });
      };
      const timer = setTimeout(() => {
        this.#sendListeners.delete(listener);
        reject(new Error(`no message sent to chat ${chatId} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#sendListeners.add(listener);
    });
  }

  /** Updates Telegram still holds (not confirmed by an offset). */
  get pendingUpdates(): readonly { update_id: number }[] {
    return this.#updates;
  }

  /** The next call of `method` is refused with this status and description. */
  failNext(method: string, failure: TelegramFailure): void {
    const queue = this.#failures.get(method) ?? [];
    queue.push(failure);
    this.#failures.set(method, queue);
  }

  /** What Telegram does with a webhook: POSTs the update to the URL with the secret header; answers the status. */
  async deliverToWebhook(update: Params): Promise<number> {
    if (!this.webhook) throw new Error('no webhook is set');
    const id = typeof update.update_id === 'number' ? update.update_id : this.#nextUpdateId++;
    const message = update.message as { chat?: { id?: unknown } } | undefined;
    if (message?.chat?.id !== undefined) this.chats.add(String(message.chat.id));
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.webhook.secretToken !== undefined) headers['X-Telegram-Bot-Api-Secret-Token'] = this.webhook.secretToken;
    const response = await fetch(this.webhook.url, { method: 'POST', headers, body: JSON.stringify({ ...update, update_id: id }) });
    await response.arrayBuffer();
    return response.status;
  }

  async #serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    if (!match) return reply(res, failure(404, 'Not Found'));
    const [, token, method = ''] = match;
    const params = { ...Object.fromEntries(url.searchParams), ...parseBody(req.headers['content-type'] ?? '', await readBody(req)) };
    this.calls.push({ method, params });
    if (token !== this.token) return reply(res, failure(401, 'Unauthorized'));
    const scripted = this.#failures.get(method)?.shift();
    if (scripted) return reply(res, failure(scripted.status, scripted.description, scripted.retryAfter));
    reply(res, await this.#call(method, params, req));
  }

  async #call(method: string, params: Params, req: IncomingMessage): Promise<Answer> {
    switch (method) {
      case 'getMe':
        return ok({ ...this.bot, is_bot: true, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false });
      case 'setWebhook': {
        const url = text(params.url);
        if (!/^https?:\/\//.test(url)) return failure(400, 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook');
        const secret = params.secret_token === undefined ? undefined : text(params.secret_token);
        if (secret !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secret))
          return failure(400, 'Bad Request: secret token contains unallowed characters');
        this.webhook = { url, secretToken: secret, allowedUpdates: jsonField(params.allowed_updates) };
        if (flag(params.drop_pending_updates)) this.#updates = [];
        return ok(true, 'Webhook was set');
      }
      case 'deleteWebhook':
        this.webhook = null;
        if (flag(params.drop_pending_updates)) this.#updates = [];
        return ok(true, 'Webhook was deleted');
      case 'getUpdates':
        return this.#getUpdates(params, req);
      case 'sendMessage':
        return this.#sendMessage(params);
      case 'sendChatAction':
        if (!this.chats.has(text(params.chat_id))) return failure(400, 'Bad Request: chat not found');
        this.chatActions.push({ chatId: text(params.chat_id), action: text(params.action) });
        return ok(true);
      default:
        return failure(404, 'Not Found');
    }
  }

  async #getUpdates(params: Params, req: IncomingMessage): Promise<Answer> {
    if (this.webhook)
      return failure(409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first");
    const offset = params.offset === undefined ? undefined : Number(params.offset);
    // An offset confirms every update before it: Telegram forgets them.
    if (offset !== undefined) this.#updates = this.#updates.filter((u) => u.update_id >= offset);
    const limit = params.limit === undefined ? 100 : Number(params.limit);
    const waiting = () => this.#updates.slice(0, limit);
    const timeout = params.timeout === undefined ? 0 : Number(params.timeout);
    if (waiting().length === 0 && timeout > 0) {
      await new Promise<void>((resolve) => {
        const waiter: Waiter = { offset: offset ?? 0, wake: () => done() };
        const timer = setTimeout(() => done(), timeout * 1000);
        const done = () => {
          clearTimeout(timer);
          this.#waiters.delete(waiter);
          req.off('close', done);
          resolve();
        };
        this.#waiters.add(waiter);
        req.on('close', done);
      });
    }
    return ok(waiting());
  }

  #sendMessage(params: Params): Answer {
    const chatId = text(params.chat_id);
    if (!this.chats.has(chatId)) return failure(400, 'Bad Request: chat not found');
    const raw = text(params.text);
    const parseMode = params.parse_mode === undefined ? undefined : text(params.parse_mode);
    let shown = raw;
    if (parseMode === 'MarkdownV2') {
      const parsed = parseMarkdownV2(raw);
      if (!parsed.ok) return failure(400, parsed.description);
      shown = parsed.text;
    } else if (parseMode !== undefined) {
      return failure(400, `Bad Request: unsupported parse_mode "${parseMode}"`);
    }
    if (shown.trim().length === 0) return failure(400, 'Bad Request: message text is empty');
    if (shown.length > 4096) return failure(400, 'Bad Request: message is too long');
    const messageId = this.#nextMessageId++;
    const sent = { chatId, text: raw, parseMode, messageId };
    this.sent.push(sent);
    const at = Date.now();
    for (const listener of this.#sendListeners) listener(sent, at);
    return ok({ message_id: messageId, date: Math.floor(Date.now() / 1000), chat: { id: Number(chatId), type: 'private' }, text: shown });
  }
}

function ok(result: unknown, description?: string): Answer {
  return { status: 200, body: { ok: true, result, ...(description ? { description } : {}) } };
}

function failure(status: number, description: string, retryAfter?: number): Answer {
  const parameters = retryAfter === undefined ? undefined : { retry_after: retryAfter };
  const shown = status === 429 && retryAfter !== undefined && description === '' ? `Too Many Requests: retry after ${retryAfter}` : description;
  return { status, body: { ok: false, error_code: status, description: shown, ...(parameters ? { parameters } : {}) } };
}

function reply(res: ServerResponse, answer: Answer): void {
  res.writeHead(answer.status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(answer.body));
}

/** JSON (grammy's usual), url-encoded, or multipart (grammy's when a file goes up): text fields only. */
function parseBody(contentType: string, body: Buffer): Params {
  if (body.length === 0) return {};
  if (contentType.startsWith('application/json')) return JSON.parse(body.toString('utf8')) as Params;
  if (contentType.startsWith('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(body.toString('utf8')));
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  if (contentType.startsWith('multipart/form-data') && boundary) {
    const params: Params = {};
    for (const part of body.toString('utf8').split(`--${boundary[1] ?? boundary[2]}`)) {
      const field = /name="([^"]+)"(?:[^\r\n]*)\r\n(?:[^\r\n]+\r\n)*\r\n([\s\S]*)\r\n$/.exec(part);
      if (field?.[1] !== undefined) params[field[1]] = field[2] ?? '';
    }
    return params;
  }
  return {};
}

const text = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : JSON.stringify(value ?? '');

const flag = (value: unknown): boolean => value === true || value === 'true';

/** A form field holding JSON (an array sent url-encoded) or the value itself. */
function jsonField(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
