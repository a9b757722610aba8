import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { Arrivals } from './arrivals.js';

export interface ReceivedMail {
  /** Envelope recipients (RCPT TO), lower case. */
  to: string[];
  from: string;
  mail: ParsedMail;
}

/** A real SMTP server on loopback that keeps every message; `rejectNext` makes it refuse messages first. */
export class SmtpSink {
  readonly #arrivals = new Arrivals<ReceivedMail>();
  /** SMTP reply codes to refuse the next messages with (4xx: try later), in order. */
  readonly rejectNext: number[] = [];
  readonly #server: SMTPServer;

  private constructor(server: SMTPServer) {
    this.#server = server;
  }

  static async start(): Promise<SmtpSink> {
    const sink: SmtpSink = new SmtpSink(
      new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        // A mailer keeps its pooled connection open: closing waits this long for it (30 s by default).
        closeTimeout: 200,
        onData(stream, session, callback) {
          simpleParser(stream).then(
            (mail) => {
              const code = sink.rejectNext.shift();
              if (code !== undefined) {
                callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: code }));
                return;
              }
              sink.#arrivals.push({
                to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
                from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
                mail,
              });
              callback();
            },
            (error: Error) => callback(error),
          );
        },
      }),
    );
    await new Promise<void>((resolve) => sink.#server.listen(0, '127.0.0.1', resolve));
    return sink;
  }

  get url(): string {
    return `smtp://127.0.0.1:${(this.#server.server.address() as AddressInfo).port}`;
  }

  /** Every message so far, in the order they arrived. */
  get mails(): ReceivedMail[] {
    return this.#arrivals.items;
  }

  waitFor(count: number, timeoutMs = 20_000): Promise<ReceivedMail[]> {
    return this.#arrivals.waitFor(count, timeoutMs);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
