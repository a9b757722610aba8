import type { FastifyReply } from 'fastify';
import { encodeSseFrame, type SseFrame } from '../contract/server-sent-events.js';

/**
 * The content type exactly, without a charset parameter (an event stream is UTF-8 by definition): the older
 * hosted widget compares the header with `===` and, on any other value, retries the question every second.
 */
const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};

/**
 * A reply turned into an event stream: the headers go out with the first frame. Hijacked, the reply skips
 * onSend (which sets x-request-id) and drops the headers hooks already set (CORS, rate limits, security):
 * they go out with the stream's own.
 */
export class SseResponse {
  #started = false;

  constructor(private readonly reply: FastifyReply) {}

  get started(): boolean {
    return this.#started;
  }

  get ended(): boolean {
    return this.reply.raw.writableEnded || this.reply.raw.destroyed;
  }

  /** Bytes written but not yet taken by the client: a reader that falls behind lets them grow. */
  get backlog(): number {
    return this.reply.raw.writableLength;
  }

  send(frame: SseFrame): void {
    this.write(encodeSseFrame(frame));
  }

  /** A comment line: keeps proxies from closing an idle stream; clients ignore it. */
  comment(text: string): void {
    this.write(`: ${text}\n\n`);
  }

  /** How long a client waits before reconnecting. */
  retry(ms: number): void {
    this.write(`retry: ${ms}\n\n`);
  }

  end(): void {
    if (!this.#started) this.start();
    if (!this.ended) this.reply.raw.end();
  }

  private start(): void {
    this.#started = true;
    const earlier = Object.entries(this.reply.getHeaders()).filter((entry): entry is [string, string | number | string[]] => entry[1] !== undefined);
    this.reply.hijack();
    this.reply.raw.writeHead(200, { ...Object.fromEntries(earlier), ...SSE_HEADERS, 'x-request-id': this.reply.request.id });
  }

  private write(text: string): void {
    if (!this.#started) this.start();
    if (!this.ended) this.reply.raw.write(text);
  }
}
