import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { closeServer, listenOnLoopback, readBody } from './loopback-server.js';

/** What the fake's chat.postMessage recorded. */
export interface PostedSlackMessage {
  channel: string;
  text: string;
  threadTs: string | undefined;
  ts: string;
}

/** A scripted answer for the next call of one method: a 429 with Retry-After, or Slack's `ok: false` with an error code. */
export type SlackFailure = { status: 429; retryAfter: number } | { error: string; needed?: string };

/** The bot token the fake knows unless told another. */
export const FAKE_SLACK_BOT_TOKEN = 'xoxb-1111111111-2222222222-FakeTokenForTestsOnly';
/** The app's signing secret, as Slack shows it (32 hex digits). */
export const FAKE_SLACK_SIGNING_SECRET = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';

type Params = Record<string, string>;

/**
 * Slack as Parley meets it, on a real loopback port. The Web API as `@slack/web-api` calls it
 * (`POST /api/<method>`, form-encoded, the token as a Bearer header): auth.test, chat.postMessage and
 * users.info, each call recorded, failures scripted per method. And Slack's side of the Events API and of
 * slash commands: requests signed as Slack signs them (its own HMAC here, not Parley's code), sent to a URL.
 */
export class FakeSlackApi {
  readonly posted: PostedSlackMessage[] = [];
  /** Every Web API call, in order. */
  readonly calls: { method: string; params: Params }[] = [];
  readonly team = { id: 'T0FAKE0001', name: 'Parley Test Workspace', domain: 'parley-test' };
  readonly bot = { userId: 'U0BOT00001', botId: 'B0BOT00001', name: 'parley' };
  /** People users.info knows. */
  readonly users = new Map<string, { name: string; realName: string; displayName: string }>([
    ['U0ADA00001', { name: 'ada', realName: 'Ada Lovelace', displayName: 'Ada' }],
  ]);
  /** Channels the bot was not invited to: chat.postMessage answers not_in_channel. */
  readonly closedChannels = new Set<string>();
  #failures = new Map<string, SlackFailure[]>();
  readonly #postListeners = new Set<(posted: PostedSlackMessage, at: number) => void>();
  #tsCounter = 0;
  #url = '';
  readonly #server: Server;

  constructor(
    readonly token = FAKE_SLACK_BOT_TOKEN,
    readonly signingSecret = FAKE_SLACK_SIGNING_SECRET,
  ) {
    this.#server = createServer((req, res) => {
      void this.#serve(req, res).catch((error: unknown) => {
        console.error('fake Slack API failed:', error);
        reply(res, 500, { ok: false, error: 'internal_error' });
      });
    });
  }

  /** Starts listening; answers the Web API's base to configure (`apiBaseUrl`). */
  async start(): Promise<string> {
    this.#url = `${await listenOnLoopback(this.#server)}/api/`;
    return this.#url;
  }

  get url(): string {
    return this.#url;
  }

  async close(): Promise<void> {
    await closeServer(this.#server);
  }

  /** The next call of `method` is answered with this failure. */
  failNext(method: string, failure: SlackFailure): void {
    this.#failures.set(method, [...(this.#failures.get(method) ?? []), failure]);
  }

  /**
   * The next message the bot posts that `matches`, with the wall-clock time (`Date.now()`) the fake took it:
   * call before the message that causes it is handed over. Rejects after `timeoutMs`.
   */
  nextPosted(matches: (posted: PostedSlackMessage) => boolean, timeoutMs = 20_000): Promise<{ posted: PostedSlackMessage; at: number }> {
    return new Promise((resolve, reject) => {
      const listener = (posted: PostedSlackMessage, at: number) => {
        if (!matches(posted)) return;
        clearTimeout(timer);
        this.#postListeners.delete(listener);
        resolve({ posted, at });
      };
      const timer = setTimeout(() => {
        this.#postListeners.delete(listener);
        reject(new Error(`no matching message posted within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#postListeners.add(listener);
    });
  }

  /** A fresh message timestamp, as Slack makes them (seconds, a dot, six digits). */
  nextTs(): string {
    this.#tsCounter += 1;
    return `${Math.floor(Date.now() / 1000)}.${String(this.#tsCounter).padStart(6, '0')}`;
  }

  /** Slack's signature of a request: `v0=` and the hex HMAC-SHA256 of `v0:<timestamp>:<body>`. */
  sign(body: string, timestamp: number, secret = this.signingSecret): string {
    return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  }

  /** An Events API callback wrapping `event`, addressed to the fake's bot. */
  eventCallback(event: Record<string, unknown>, eventId = `Ev${this.nextTs().replace('.', '')}`): Record<string, unknown> {
    return {
      token: 'legacy-verification-token',
      team_id: this.team.id,
      api_app_id: 'A0APP00001',
      event: { event_ts: event.ts, ...event },
      type: 'event_callback',
      event_id: eventId,
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [{ enterprise_id: null, team_id: this.team.id, user_id: this.bot.userId, is_bot: true, is_enterprise_install: false }],
      is_ext_shared_channel: false,
    };
  }

  /**
   * What Slack does with a Request URL: POSTs the payload, signed (or as `options` says), and answers the
   * status and body. `retryNum` adds Slack's retry headers, as on a delivery it makes again.
   */
  async deliver(
    url: string,
    payload: Record<string, unknown> | URLSearchParams,
    options: { retryNum?: number; timestamp?: number; secret?: string; signature?: string | null } = {},
  ): Promise<{ status: number; body: string; contentType: string | null }> {
    const form = payload instanceof URLSearchParams;
    const body = form ? payload.toString() : JSON.stringify(payload);
    const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = {
      'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
      'x-slack-request-timestamp': String(timestamp),
      'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
    };
    const signature = options.signature === undefined ? this.sign(body, timestamp, options.secret) : options.signature;
    if (signature !== null) headers['x-slack-signature'] = signature;
    if (options.retryNum !== undefined) {
      headers['x-slack-retry-num'] = String(options.retryNum);
      headers['x-slack-retry-reason'] = 'http_timeout';
    }
    const response = await fetch(url, { method: 'POST', headers, body });
    return { status: response.status, body: await response.text(), contentType: response.headers.get('content-type') };
  }

  /** A slash command's form, as Slack posts it when someone types `/ask <text>` in `channel`. */
  slashCommand(channel: string, text: string, user = 'U0ADA00001'): URLSearchParams {
    return new URLSearchParams({
      token: 'legacy-verification-token',
      team_id: this.team.id,
      team_domain: this.team.domain,
      channel_id: channel,
      channel_name: 'support',
      user_id: user,
      user_name: this.users.get(user)?.name ?? 'someone',
      command: '/ask',
      text,
      api_app_id: 'A0APP00001',
      response_url: `${this.#url.replace(/\/api\/$/, '')}/commands/${this.team.id}/1/response`,
      trigger_id: `${this.nextTs().replace('.', '')}.${this.team.id}.abcdef0123456789`,
    });
  }

  async #serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = /^\/api\/([A-Za-z.]+)$/.exec(new URL(req.url ?? '/', 'http://fake').pathname)?.[1];
    if (method === undefined) return reply(res, 404, { ok: false, error: 'unknown_method' });
    const params = Object.fromEntries(new URLSearchParams((await readBody(req)).toString('utf8'))) as Params;
    this.calls.push({ method, params });
    if (req.headers.authorization !== `Bearer ${this.token}`) return reply(res, 200, { ok: false, error: 'invalid_auth' });
    const scripted = this.#failures.get(method)?.shift();
    if (scripted !== undefined && 'status' in scripted) {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(scripted.retryAfter) });
      return void res.end(JSON.stringify({ ok: false, error: 'ratelimited' }));
    }
    if (scripted !== undefined) return reply(res, 200, { ok: false, error: scripted.error, ...(scripted.needed ? { needed: scripted.needed } : {}) });
    reply(res, 200, this.#call(method, params));
  }

  #call(method: string, params: Params): Record<string, unknown> {
    switch (method) {
      case 'auth.test':
        return {
          ok: true,
          url: `https://${this.team.domain}.slack.com/`,
          team: this.team.name,
          user: this.bot.name,
          team_id: this.team.id,
          user_id: this.bot.userId,
          bot_id: this.bot.botId,
          is_enterprise_install: false,
        };
      case 'users.info': {
        const user = this.users.get(params.user ?? '');
        if (user === undefined) return { ok: false, error: 'user_not_found' };
        return {
          ok: true,
          user: {
            id: params.user,
            team_id: this.team.id,
            name: user.name,
            real_name: user.realName,
            profile: { real_name: user.realName, display_name: user.displayName },
            is_bot: false,
          },
        };
      }
      case 'chat.postMessage': {
        const channel = params.channel ?? '';
        const text = params.text ?? '';
        if (channel === '') return { ok: false, error: 'channel_not_found' };
        if (this.closedChannels.has(channel)) return { ok: false, error: 'not_in_channel' };
        if (text.trim() === '') return { ok: false, error: 'no_text' };
        if (text.length > 40_000) return { ok: false, error: 'msg_too_long' };
        const ts = this.nextTs();
        const posted = { channel, text, threadTs: params.thread_ts, ts };
        this.posted.push(posted);
        const at = Date.now();
        for (const listener of this.#postListeners) listener(posted, at);
        return {
          ok: true,
          channel,
          ts,
          message: {
            type: 'message',
            bot_id: this.bot.botId,
            user: this.bot.userId,
            text,
            ts,
            ...(posted.threadTs ? { thread_ts: posted.threadTs } : {}),
          },
        };
      }
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}
