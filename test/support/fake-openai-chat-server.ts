import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import { closeServer, listenOnLoopback } from './loopback-server.js';

/** The fields of a chat completions request that tests look at; the rest stays in `raw`. */
export interface ChatCompletionRequestBody {
  model: string;
  messages: { role: string; content: unknown }[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  temperature?: number;
  top_p?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  seed?: number;
  stop?: string[];
  [field: string]: unknown;
}

export interface RecordedChatRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: ChatCompletionRequestBody;
}

/** How a streamed answer breaks off after its deltas: the connection drops, goes quiet, or carries an error. */
export type StreamCut = 'drop' | 'hang' | { error: { message: string; type: string; code?: string } };

/**
 * What the server does with the next request. A request with no reply scripted for it gets
 * {@link FakeOpenAIChatServer.defaultReply} when a test set one, else a 500: a call nobody expected fails loudly.
 * - `answer`: the text as `deltas` (SSE chunks when the request streams, one JSON body otherwise);
 *   `delayMs` between chunks, `finishReason` defaults to "stop"; `cut` breaks the stream off after the deltas
 *   (and a pause); `restAfter` holds the deltas after the first until it settles, so a test can look at a
 *   half-streamed answer however slowly the machine runs (a delay alone can be swallowed by a stall).
 * - `error`: an OpenAI-style error body with `status` and extra `headers` (e.g. Retry-After).
 * - `hang`: headers are sent, then nothing; the client must abort.
 * - `silent`: not even headers; the client must abort.
 * - `reset`: the connection is closed without a response.
 */
export type ChatReply =
  | {
      kind: 'answer';
      deltas: string[];
      delayMs?: number;
      restAfter?: Promise<unknown>;
      finishReason?: string;
      usage?: { prompt_tokens: number; completion_tokens: number };
      cut?: StreamCut;
    }
  | { kind: 'error'; status: number; message: string; headers?: Record<string, string> }
  | { kind: 'hang' }
  | { kind: 'silent' }
  | { kind: 'reset' };

/** A short greeting, for tests that need some answer and do not look at which. */
export const GREETING: ChatReply = { kind: 'answer', deltas: ['Hello', ' from', ' the', ' fake', ' server.'] };

/**
 * Speaks OpenAI's `POST /v1/chat/completions`, streaming (`stream: true`: SSE `data: {chunk}` frames, then
 * `data: [DONE]`) and not. Records every request, answers with scripted replies in order.
 */
export class FakeOpenAIChatServer {
  readonly requests: RecordedChatRequest[] = [];
  readonly replies: ChatReply[] = [];
  /** What every request without a scripted reply gets; null (unless the constructor was given one): such a request is a test's mistake. */
  readonly defaultReply: ChatReply | null;
  /** Streams the server has cut short because the client went away. */
  abandoned = 0;
  /** When set, every request must carry `Authorization: Bearer <apiKey>`, else 401 (as OpenAI answers a bad key). */
  apiKey: string | null = null;
  /** What `GET /v1/models` lists. */
  models: string[] = ['fake-chat'];

  constructor({ defaultReply = null }: { defaultReply?: ChatReply | null } = {}) {
    this.defaultReply = defaultReply;
  }

  #server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as ChatCompletionRequestBody;
      void this.#handle({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body }, res);
    });
  });

  /** Listens on a free loopback port; returns the API root (`http://127.0.0.1:PORT/v1`). */
  async start(): Promise<string> {
    return `${await listenOnLoopback(this.#server)}/v1`;
  }

  /** Starts it and answers Parley's environment for a model named `remote` served by it (`PARLEY_MODELS`). */
  async startAsRemoteModel(): Promise<Record<string, string>> {
    const baseURL = await this.start();
    return { PARLEY_MODELS: JSON.stringify({ remote: { provider: 'openai-compatible', model: 'fake-chat', baseURL } }) };
  }

  async stop(): Promise<void> {
    await closeServer(this.#server);
  }

  async #handle(request: RecordedChatRequest, res: ServerResponse): Promise<void> {
    this.requests.push(request);
    if (this.apiKey !== null && request.headers.authorization !== `Bearer ${this.apiKey}`) {
      return json(res, 401, {
        error: { message: `Incorrect API key provided: ${request.headers.authorization ?? ''}`, type: 'invalid_request_error' },
      });
    }
    if (request.method === 'GET' && request.url === '/v1/models') {
      return json(res, 200, { object: 'list', data: this.models.map((id) => ({ id, object: 'model', owned_by: 'fake' })) });
    }
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
      return json(res, 404, { error: { message: `no route ${request.method} ${request.url}`, type: 'invalid_request_error' } });
    }
    const reply = this.replies.shift() ?? this.defaultReply;
    if (reply === null) {
      return json(res, 500, { error: { message: 'the fake model server was called with no reply scripted', type: 'server_error' } });
    }
    if (reply.kind === 'error') {
      return json(res, reply.status, { error: { message: reply.message, type: 'invalid_request_error' } }, reply.headers);
    }
    if (reply.kind === 'silent') return;
    if (reply.kind === 'reset') return void res.socket?.destroy();
    if (reply.kind === 'hang') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      return;
    }
    const id = `chatcmpl-${this.requests.length}`;
    const created = 1_700_000_000;
    const model = request.body.model;
    const usage = reply.usage ?? { prompt_tokens: 11, completion_tokens: reply.deltas.length };
    const usageBody = { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
    const finishReason = reply.finishReason ?? 'stop';

    if (!request.body.stream) {
      return json(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: reply.deltas.join('') }, finish_reason: finishReason }],
        usage: usageBody,
      });
    }

    let clientGone = false;
    res.on('close', () => (clientGone = true));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const send = (data: unknown) => res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
    const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    send(chunk({ role: 'assistant', content: '' }, null));
    for (const [index, content] of reply.deltas.entries()) {
      if (index === 1 && reply.restAfter) await reply.restAfter;
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      if (clientGone) {
        this.abandoned++;
        return;
      }
      send(chunk({ content }, null));
    }
    // The client reads the deltas before the stream breaks, as it would over a real network.
    if (reply.cut !== undefined) await new Promise((resolve) => setTimeout(resolve, reply.delayMs ?? 20));
    if (reply.cut === 'drop') return void res.socket?.destroy();
    if (reply.cut === 'hang') return;
    if (reply.cut !== undefined) {
      send({ error: reply.cut.error });
      return void res.end();
    }
    send(chunk({}, finishReason));
    if (request.body.stream_options?.include_usage) send({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: usageBody });
    send('[DONE]');
    res.end();
  }
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
