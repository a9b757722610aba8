import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

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
  readonly received: ReceivedWebhook[] = [];
  readonly replies: ReceiverReply[] = [];
  readonly #server: Server;
  #waiters: (() => void)[] = [];

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(): Promise<WebhookReceiver> {
    const receiver: WebhookReceiver = new WebhookReceiver(
      createServer((request, response) => {
        const parts: Buffer[] = [];
        request.on('data', (part: Buffer) => parts.push(part));
        request.on('end', () => {
          receiver.received.push({ headers: request.headers, body: Buffer.concat(parts).toString('utf8'), at: Date.now() });
          for (const wake of receiver.#waiters.splice(0)) wake();
          const reply = receiver.replies.shift() ?? { status: 200, body: 'ok' };
          if ('hang' in reply) return;
          response.writeHead(reply.status, { 'content-type': 'text/plain' }).end(reply.body ?? '');
        });
      }),
    );
    await new Promise<void>((resolve) => receiver.#server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/hook`;
  }

  /** Resolves once `count` requests have arrived; fails after `timeoutMs`. */
  async waitFor(count: number, timeoutMs = 20_000): Promise<ReceivedWebhook[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} webhook requests, got ${this.received.length}`);
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
    return this.received.slice(0, count);
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
