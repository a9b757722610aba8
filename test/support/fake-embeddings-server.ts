import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import { closeServer, listenOnLoopback } from './loopback-server.js';

/** Vector length the fake answers with unless a reply says otherwise. */
export const DIMENSIONS = 8;

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: { model: string; input: string[]; encoding_format?: string; dimensions?: number };
}

/** What the fake does with the next request; unscripted requests get embeddings. */
export type Reply =
  | { kind: 'error'; status: number; message: string; headers?: Record<string, string> }
  | { kind: 'hang' }
  | { kind: 'base64' }
  | { kind: 'dimensions'; dimensions: number };

/** A deterministic, not normalised vector per text, so the client's ordering and scaling can be checked. */
export function fakeVector(text: string, dimensions = DIMENSIONS): number[] {
  let hash = 2166136261;
  for (const char of text) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 16777619) >>> 0;
  return Array.from({ length: dimensions }, (_, i) => (((hash >>> (i * 3)) & 0xff) + 1) / 64);
}

export const unit = (values: number[]): number[] => {
  const length = Math.hypot(...values);
  return values.map((v) => v / length);
};

/** Speaks `POST /v1/embeddings` like OpenAI: returns `data` shuffled (clients must use `index`), records requests. */
export class FakeEmbeddingsServer {
  readonly requests: RecordedRequest[] = [];
  readonly replies: Reply[] = [];
  #server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => this.#handle({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: JSON.parse(raw || '{}') }, res));
  });

  async start(): Promise<string> {
    return `${await listenOnLoopback(this.#server)}/v1`;
  }

  async stop(): Promise<void> {
    await closeServer(this.#server);
  }

  #handle(request: RecordedRequest, res: ServerResponse): void {
    this.requests.push(request);
    if (request.method !== 'POST' || request.url !== '/v1/embeddings') return json(res, 404, { error: { message: 'not found' } });
    const reply = this.replies.shift();
    if (reply?.kind === 'hang') return; // never answers; the client must abort
    if (reply?.kind === 'error') {
      return json(res, reply.status, { error: { message: reply.message, type: 'invalid_request_error' } }, reply.headers);
    }
    const dimensions = reply?.kind === 'dimensions' ? reply.dimensions : DIMENSIONS;
    const base64 = reply?.kind === 'base64' || request.body.encoding_format === 'base64';
    const data = request.body.input.map((text, index) => {
      const vector = fakeVector(text, dimensions);
      const embedding = base64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
      return { object: 'embedding', index, embedding };
    });
    // Deterministic shuffle: reversed, then odd positions first.
    data.reverse();
    const shuffled = [...data.filter((_, i) => i % 2 === 1), ...data.filter((_, i) => i % 2 === 0)];
    const tokens = request.body.input.join(' ').split(/\s+/).length;
    json(res, 200, { object: 'list', data: shuffled, model: request.body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
  }
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
