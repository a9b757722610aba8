import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { closeServer, listenOnLoopback, readBody } from './loopback-server.js';

/** What the fake's messages endpoint recorded: a text or a template, to whom, and the id it gave. */
export interface SentWhatsAppMessage {
  to: string;
  type: 'text' | 'template';
  text: string | undefined;
  template: { name: string; language: string } | undefined;
  id: string;
}

/** A scripted refusal of the next call to the messages endpoint. */
export interface GraphFailure {
  status: number;
  code: number;
  message: string;
  /** The Retry-After header, in seconds. */
  retryAfter?: number;
}

export const FAKE_ACCESS_TOKEN = 'EAAGfakeAccessTokenForTestsOnly0123456789abcdefZZ';
export const FAKE_APP_SECRET = 'fake-app-secret-0123456789abcdef';
export const FAKE_PHONE_NUMBER_ID = '106540352242922';
const DISPLAY_PHONE_NUMBER = '+1 555-010-0199';
const VERIFIED_NAME = 'Parley Test Shop';
const API_VERSION = 'v27.0';
const WINDOW_MS = 24 * 60 * 60 * 1000;

type Json = Record<string, unknown>;

/** `X-Hub-Signature-256` as Meta documents it: `sha256=` and the hex HMAC-SHA256 of the raw body keyed with the app secret. */
export const signWhatsAppBody = (body: string, appSecret: string): string => `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;

/** A webhook delivery's envelope around one `messages` change, as in Meta's webhook reference. */
export const webhookEnvelope = (value: Json, phoneNumberId = FAKE_PHONE_NUMBER_ID): Json => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: '102290129340398',
      changes: [
        {
          field: 'messages',
          value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '15550100199', phone_number_id: phoneNumberId }, ...value },
        },
      ],
    },
  ],
});

let nextInboundId = 1;
const inboundId = () => `wamid.HBgLMTY1MDU1NTExMTEVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA${nextInboundId++}=`;

/** A customer's message of any type (`text`, `image`, …) with its contact, as the webhook carries it. */
export function customerMessage(waId: string, name: string, type: string, content: Json, id = inboundId()): Json {
  return {
    contacts: [{ profile: { name }, wa_id: waId }],
    messages: [{ from: waId, id, timestamp: String(Math.floor(Date.now() / 1000)), type, [type]: content }],
  };
}

export const customerText = (waId: string, name: string, body: string, id?: string): Json => customerMessage(waId, name, 'text', { body }, id);

/** A status of a message the business sent (sent, delivered, read, failed with its errors). */
export function messageStatus(recipient: string, messageId: string, status: string, errors?: Json[]): Json {
  return {
    statuses: [
      {
        id: messageId,
        status,
        timestamp: String(Math.floor(Date.now() / 1000)),
        recipient_id: recipient,
        ...(status === 'failed' ? { errors } : { conversation: { id: 'conv-1', origin: { type: 'service' } } }),
      },
    ],
  };
}

/**
 * The Graph API as the Cloud API uses it, on a real loopback port: the phone number lookup, the messages
 * endpoint (text within 24 hours of the customer's last message, else only templates: error 131047, as Meta
 * answers), and media (`GET /{media-id}` → a URL → the bytes, both with the bearer token). It also plays Meta's
 * webhook side: the verification request and signed deliveries to a callback URL.
 */
export class FakeGraphApi {
  readonly sent: SentWhatsAppMessage[] = [];
  /** Every call, in order. */
  readonly calls: { method: string; path: string; authorization: string | undefined }[] = [];
  /** The callback URL and verify token, once verified as Meta does it. */
  callback: { url: string; verifyToken: string } | null = null;
  readonly #media = new Map<string, { content: Buffer; mimeType: string }>();
  readonly #lastInbound = new Map<string, number>();
  readonly #failures: GraphFailure[] = [];
  readonly #sendListeners = new Set<(message: SentWhatsAppMessage, at: number) => void>();
  #nextId = 1;
  #origin = '';
  readonly #server: Server;

  constructor(
    readonly accessToken = FAKE_ACCESS_TOKEN,
    readonly phoneNumberId = FAKE_PHONE_NUMBER_ID,
    readonly appSecret = FAKE_APP_SECRET,
  ) {
    this.#server = createServer((req, res) => {
      void this.#serve(req, res).catch((error: unknown) => {
        console.error('fake Graph API failed:', error);
        graphError(res, 500, 1, 'An unknown error occurred');
      });
    });
  }

  /** Starts listening; answers the versioned base URL to configure (`graphApiBaseUrl`). */
  async start(): Promise<string> {
    this.#origin = await listenOnLoopback(this.#server);
    return this.url;
  }

  get url(): string {
    return `${this.#origin}/${API_VERSION}`;
  }

  async close(): Promise<void> {
    await closeServer(this.#server);
  }

  /** A file a customer sent: its media id, served to the bearer of the token. */
  addMedia(mediaId: string, content: Buffer, mimeType: string): void {
    this.#media.set(mediaId, { content, mimeType });
  }

  /** The next call of the messages endpoint is refused so. */
  failNext(failure: GraphFailure): void {
    this.#failures.push(failure);
  }

  /** When Meta last saw `waId` write (its 24-hour window); a delivery sets it too. */
  customerWrote(waId: string, at = Date.now()): void {
    this.#lastInbound.set(waId, at);
  }

  /** The next message to `to`, with the time the fake took it: call before the message that causes it is handed over. */
  nextSent(to: string, timeoutMs = 20_000): Promise<{ message: SentWhatsAppMessage; at: number }> {
    return new Promise((resolve, reject) => {
      const listener = (message: SentWhatsAppMessage, at: number) => {
        if (message.to !== to) return;
        clearTimeout(timer);
        this.#sendListeners.delete(listener);
        resolve({ message, at });
      };
      const timer = setTimeout(() => {
        this.#sendListeners.delete(listener);
        reject(new Error(`no message sent to ${to} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#sendListeners.add(listener);
    });
  }

  /** Meta's verification request to a callback URL: true when it echoes the challenge (Meta then keeps the URL). */
  async verifyCallback(url: string, verifyToken: string): Promise<{ status: number; verified: boolean }> {
    const challenge = String(Math.floor(Math.random() * 1e9));
    const query = new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.challenge': challenge, 'hub.verify_token': verifyToken });
    const response = await fetch(`${url}?${query.toString()}`);
    const verified = response.status === 200 && (await response.text()) === challenge;
    if (verified) this.callback = { url, verifyToken };
    return { status: response.status, verified };
  }

  /**
   * What Meta does with an event: POSTs the envelope to the callback URL, signed with the app secret (or the
   * secret given; null: unsigned). Answers the status.
   */
  async deliver(value: Json, options: { appSecret?: string | null; url?: string } = {}): Promise<number> {
    const url = options.url ?? this.callback?.url;
    if (url === undefined) throw new Error('no callback URL is verified');
    for (const message of Array.isArray(value.messages) ? (value.messages as Json[]) : []) this.customerWrote(String(message.from));
    const body = JSON.stringify(webhookEnvelope(value, this.phoneNumberId));
    const secret = options.appSecret === undefined ? this.appSecret : options.appSecret;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (secret !== null) headers['x-hub-signature-256'] = signWhatsAppBody(body, secret);
    const response = await fetch(url, { method: 'POST', headers, body });
    await response.arrayBuffer();
    return response.status;
  }

  async #serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.#origin);
    const authorization = req.headers.authorization;
    this.calls.push({ method: req.method ?? 'GET', path: url.pathname, authorization });
    if (authorization !== `Bearer ${this.accessToken}`) {
      return graphError(res, 401, 190, 'Invalid OAuth access token - Cannot parse access token');
    }
    const file = /^\/media-files\/([^/]+)$/.exec(url.pathname);
    if (file) {
      const media = this.#media.get(decodeURIComponent(file[1] ?? ''));
      if (!media) return graphError(res, 404, 100, 'Unsupported get request');
      res.writeHead(200, { 'content-type': media.mimeType, 'content-length': media.content.length });
      return void res.end(media.content);
    }
    const [version, node, edge, ...rest] = url.pathname.split('/').filter(Boolean);
    if (version !== API_VERSION || node === undefined || rest.length > 0) return graphError(res, 404, 100, 'Unknown path components');
    if (req.method === 'POST' && node === this.phoneNumberId && edge === 'messages')
      return this.#sendMessage(JSON.parse((await readBody(req)).toString('utf8')) as Json, res);
    if (req.method !== 'GET' || edge !== undefined) return graphError(res, 400, 100, 'Unsupported request');
    if (node === this.phoneNumberId) {
      const fields = (url.searchParams.get('fields') ?? '').split(',');
      const all: Json = { display_phone_number: DISPLAY_PHONE_NUMBER, verified_name: VERIFIED_NAME, quality_rating: 'GREEN' };
      return json(res, 200, { ...Object.fromEntries(fields.filter((field) => field in all).map((field) => [field, all[field]])), id: node });
    }
    const media = this.#media.get(node);
    if (!media) return graphError(res, 400, 100, `Unsupported get request. Object with ID '${node}' does not exist`);
    return json(res, 200, {
      messaging_product: 'whatsapp',
      url: `${this.#origin}/media-files/${encodeURIComponent(node)}`,
      mime_type: media.mimeType,
      sha256: 'not-checked',
      file_size: media.content.length,
      id: node,
    });
  }

  #sendMessage(body: Json, res: ServerResponse): void {
    const failure = this.#failures.shift();
    if (failure) return graphError(res, failure.status, failure.code, failure.message, failure.retryAfter);
    const to = typeof body.to === 'string' ? body.to : '';
    if (body.messaging_product !== 'whatsapp' || !/^\d+$/.test(to)) return graphError(res, 400, 100, 'Invalid parameter');
    let message: SentWhatsAppMessage;
    const id = `wamid.fake${this.#nextId++}`;
    if (body.type === 'text') {
      const text = (body.text as Json | undefined)?.body;
      if (typeof text !== 'string' || text.length === 0 || text.length > 4096) return graphError(res, 400, 100, 'Invalid parameter');
      const wrote = this.#lastInbound.get(to);
      if (wrote === undefined || Date.now() - wrote >= WINDOW_MS) {
        return graphError(res, 400, 131047, 'Re-engagement message');
      }
      message = { to, type: 'text', text, template: undefined, id };
    } else if (body.type === 'template') {
      const template = body.template as { name?: unknown; language?: { code?: unknown } } | undefined;
      if (typeof template?.name !== 'string' || typeof template.language?.code !== 'string') return graphError(res, 400, 100, 'Invalid parameter');
      message = { to, type: 'template', text: undefined, template: { name: template.name, language: template.language.code }, id };
    } else {
      return graphError(res, 400, 100, 'Invalid parameter');
    }
    this.sent.push(message);
    const at = Date.now();
    for (const listener of this.#sendListeners) listener(message, at);
    json(res, 200, { messaging_product: 'whatsapp', contacts: [{ input: to, wa_id: to }], messages: [{ id }] });
  }
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** The Graph API's error object; rate limits may carry Retry-After. */
function graphError(res: ServerResponse, status: number, code: number, message: string, retryAfter?: number): void {
  json(
    res,
    status,
    {
      error: {
        message: `(#${code}) ${message}`,
        type: 'OAuthException',
        code,
        error_data: { messaging_product: 'whatsapp', details: message },
        fbtrace_id: 'Afake',
      },
    },
    retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) },
  );
}
