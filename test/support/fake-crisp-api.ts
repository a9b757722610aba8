import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { crispHookSignature } from '../../src/channels/crisp/crisp-hook-verification.js';
import { closeServer, listenOnLoopback, readBody } from './loopback-server.js';

/** The website and plugin token the fake knows unless told others. */
export const FAKE_CRISP_WEBSITE_ID = '42286ab3-b29a-4fde-8538-da0ae501d825';
export const FAKE_CRISP_IDENTIFIER = '7c3ef21c-1e04-41ce-8c06-5605c346f73e';
export const FAKE_CRISP_KEY = 'cc29e1a5086e428fcc6a697d5837a66d82808e65c5cce006fbf2191ceea80a0a';

/** One REST call as the fake took it, with how it was authenticated. */
export interface CrispCall {
  method: string;
  path: string;
  body: Record<string, unknown> | null;
  /** The Basic credentials, decoded (`identifier:key`), or null. */
  basic: string | null;
  tier: string | undefined;
}

/** A message posted in a conversation (a text to the visitor, or an operators' note). */
export interface CrispPostedMessage {
  websiteId: string;
  sessionId: string;
  type: string;
  from: string;
  origin: string;
  content: string;
  fingerprint: number;
}

/** How a hook is signed when it is delivered: Plugin Hooks' signing secret and timestamp, or none (Website Hooks). */
export interface HookSigning {
  signingSecret?: string;
  /** X-Crisp-Request-Timestamp (ms); now unless given. */
  timestamp?: number;
}

type Answer = { status: number; body: unknown };

/**
 * Crisp's REST API (v1) as Parley calls it, on a loopback port: the website (`GET /v1/website/{id}`), messages
 * and notes in a conversation (`POST …/conversation/{session}/message`) and its state (`PATCH …/state`),
 * answering `{error, reason, data}` as Crisp does; a call without the plugin token's Basic credentials and
 * `X-Crisp-Tier: plugin` is refused (401 `invalid_session`). Records every call; delivers hooks as Crisp does.
 */
export class FakeCrispApi {
  readonly calls: CrispCall[] = [];
  readonly posted: CrispPostedMessage[] = [];
  readonly states: { sessionId: string; state: string }[] = [];
  readonly website = { website_id: FAKE_CRISP_WEBSITE_ID, name: 'Shop Support', domain: 'shop.example' };
  #failures: number[] = [];
  #nextFingerprint = 524_000_000_000_000;
  readonly #postListeners = new Set<(message: CrispPostedMessage, at: number) => void>();
  #url = '';
  readonly #server: Server;

  constructor(
    readonly identifier = FAKE_CRISP_IDENTIFIER,
    readonly key = FAKE_CRISP_KEY,
  ) {
    this.#server = createServer((req, res) => {
      void this.#serve(req, res).catch(() => reply(res, { status: 500, body: { error: true, reason: 'internal_error', data: {} } }));
    });
  }

  async start(): Promise<string> {
    this.#url = await listenOnLoopback(this.#server);
    return this.url;
  }

  /** The REST API's root, as a connection's apiBaseUrl. */
  get url(): string {
    return `${this.#url}/v1`;
  }

  async close(): Promise<void> {
    await closeServer(this.#server);
  }

  /** The next REST call answers this status (Crisp's rate limit, its own failure). */
  failNext(status: number): void {
    this.#failures.push(status);
  }

  /** Messages of type text posted in `sessionId`: what the visitor reads. */
  textsTo(sessionId: string): string[] {
    return this.posted.filter((message) => message.sessionId === sessionId && message.type === 'text').map((message) => message.content);
  }

  /** The next text posted in `sessionId`, with the wall-clock time the fake took it: call before causing it. */
  nextText(sessionId: string, timeoutMs = 20_000): Promise<{ message: CrispPostedMessage; at: number }> {
    return new Promise((resolve, reject) => {
      const listener = (message: CrispPostedMessage, at: number) => {
        if (message.sessionId !== sessionId || message.type !== 'text') return;
        clearTimeout(timer);
        this.#postListeners.delete(listener);
        resolve({ message, at });
      };
      const timer = setTimeout(() => {
        this.#postListeners.delete(listener);
        reject(new Error(`no text posted in ${sessionId} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#postListeners.add(listener);
    });
  }

  /** What Crisp's hook dispatcher does: POSTs the hook's JSON to `url`, signed when a signing secret is given; answers the status. */
  async deliverHook(url: string, hook: object, signing: HookSigning = {}): Promise<number> {
    const body = JSON.stringify(hook);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-delivery-attempt-count': '1' };
    const timestamp = String(signing.timestamp ?? Date.now());
    headers['x-crisp-request-timestamp'] = timestamp;
    if (signing.signingSecret !== undefined) headers['x-crisp-signature'] = crispHookSignature(signing.signingSecret, timestamp, body);
    const response = await fetch(url, { method: 'POST', headers, body });
    await response.arrayBuffer();
    return response.status;
  }

  async #serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const raw = await readBody(req);
    const body = raw.length === 0 ? null : (JSON.parse(raw.toString('utf8')) as Record<string, unknown>);
    const authorization = req.headers.authorization ?? '';
    const basic = authorization.startsWith('Basic ') ? Buffer.from(authorization.slice(6), 'base64').toString('utf8') : null;
    const tier = req.headers['x-crisp-tier'] as string | undefined;
    this.calls.push({ method: req.method ?? 'GET', path: url.pathname, body, basic, tier });
    if (basic !== `${this.identifier}:${this.key}` || tier !== 'plugin') return reply(res, refusal(401, 'invalid_session'));
    const failure = this.#failures.shift();
    if (failure !== undefined) return reply(res, refusal(failure, failure === 429 ? 'rate_limited' : 'internal_error'));
    reply(res, this.#route(req.method ?? 'GET', url.pathname, body));
  }

  #route(method: string, path: string, body: Record<string, unknown> | null): Answer {
    const match = /^\/v1\/website\/([^/]+)(?:\/conversation\/([^/]+)\/(message|state))?$/.exec(path);
    if (!match) return refusal(404, 'not_found');
    const [, websiteId = '', sessionId, resource] = match;
    if (websiteId !== this.website.website_id) return refusal(404, 'website_not_found');
    if (resource === undefined && method === 'GET') return ok('resolved', this.website);
    if (sessionId === undefined || !/^session_[\w-]+$/.test(sessionId)) return refusal(404, 'session_not_found');
    if (resource === 'message' && method === 'POST') {
      const { type, from, origin, content } = body ?? {};
      if (typeof type !== 'string' || typeof from !== 'string' || typeof origin !== 'string' || typeof content !== 'string' || content === '') {
        return refusal(400, 'invalid_data');
      }
      const message = { websiteId, sessionId, type, from, origin, content, fingerprint: this.#nextFingerprint++ };
      this.posted.push(message);
      const at = Date.now();
      for (const listener of this.#postListeners) listener(message, at);
      return ok('dispatched', { fingerprint: message.fingerprint });
    }
    if (resource === 'state' && method === 'PATCH') {
      const state = body?.state;
      if (state !== 'pending' && state !== 'unresolved' && state !== 'resolved') return refusal(400, 'invalid_data');
      this.states.push({ sessionId, state });
      return ok('updated', {});
    }
    return refusal(404, 'not_found');
  }
}

let nextFingerprint = 150_698_569_649_423;

/** A visitor's text message as Crisp's `message:send` hook carries it (the shape of Crisp's documented example). */
export function visitorMessageHook(
  sessionId: string,
  content: string,
  options: { websiteId?: string; fingerprint?: number; nickname?: string } = {},
) {
  const websiteId = options.websiteId ?? FAKE_CRISP_WEBSITE_ID;
  const timestamp = Date.now();
  return {
    website_id: websiteId,
    event: 'message:send',
    data: {
      website_id: websiteId,
      session_id: sessionId,
      type: 'text',
      content,
      from: 'user',
      origin: 'chat',
      stamped: true,
      timestamp,
      fingerprint: options.fingerprint ?? nextFingerprint++,
      user: { nickname: options.nickname ?? 'visitor493603', user_id: sessionId },
    },
    timestamp,
  };
}

function ok(reason: string, data: unknown): Answer {
  return { status: 200, body: { error: false, reason, data } };
}

function refusal(status: number, reason: string): Answer {
  return { status, body: { error: true, reason, data: {} } };
}

function reply(res: ServerResponse, answer: Answer): void {
  res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(answer.body));
}
