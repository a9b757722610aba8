import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { closeServer, listenOnLoopback } from './loopback-server.js';
import { Arrivals } from './arrivals.js';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as it arrived (what a signature is computed over). */
  body: string;
  at: number;
}

/** What the receiver does with the next request: answer with a status, or hold it open and say nothing. */
export type ReceiverReply = { status: number; body?: string } | { hang: true };

/** A webhook receiver on loopback: records every POST and answers with scripted replies, then 200. */
export class WebhookReceiver {
  readonly #arrivals = new Arrivals<ReceivedWebhook>();
  readonly replies: ReceiverReply[] = [];
  readonly #server: Server;
  #url = '';

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(): Promise<WebhookReceiver> {
    const receiver: WebhookReceiver = new WebhookReceiver(
      createServer((request, response) => {
        const parts: Buffer[] = [];
        request.on('data', (part: Buffer) => parts.push(part));
        request.on('end', () => {
          receiver.#arrivals.push({ headers: request.headers, body: Buffer.concat(parts).toString('utf8'), at: Date.now() });
          const reply = receiver.replies.shift() ?? { status: 200, body: 'ok' };
          if ('hang' in reply) return;
          response.writeHead(reply.status, { 'content-type': 'text/plain' }).end(reply.body ?? '');
        });
      }),
    );
    receiver.#url = `${await listenOnLoopback(receiver.#server)}/hook`;
    return receiver;
  }

  get url(): string {
    return this.#url;
  }

  /** Every request so far, in the order they arrived. */
  get received(): ReceivedWebhook[] {
    return this.#arrivals.items;
  }

  /** Resolves once `count` requests have arrived; fails after `timeoutMs`. */
  waitFor(count: number, timeoutMs = 20_000): Promise<ReceivedWebhook[]> {
    return this.#arrivals.waitFor(count, timeoutMs);
  }

  async close(): Promise<void> {
    await closeServer(this.#server);
  }
}
