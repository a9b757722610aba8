import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

export interface MailListenerOptions {
  host: string;
  /** 0 for any free port (tests); the chosen one is in the answer. */
  port: number;
  /** Announced with SIZE; a longer message is refused with 552 and never handed on. */
  maxMessageBytes: number;
  /**
   * Whether Parley takes mail for `recipient` (an address of an enabled connection, its `local+tag@` forms
   * included); others get 550 before the message is sent.
   */
  accepts(recipient: string): Promise<boolean>;
  /** Called once per accepted recipient of a message; a failure answers 451, so the sending server tries again later. */
  onMail(recipient: string, raw: Buffer): Promise<void>;
  onError(error: unknown): void;
  /**
   * A certificate to offer STARTTLS with. Without one STARTTLS is not offered: the listener is meant to sit
   * behind the instance's own MTA (or on a private network), which forwards to it in the clear.
   */
  tls?: { key: string | Buffer; cert: string | Buffer };
}

export interface MailListener {
  port: number;
  close(): Promise<void>;
}

const refusal = (message: string, responseCode: number) => Object.assign(new Error(message), { responseCode });

/**
 * Parley's own SMTP server for `inbound: smtp` connections: an MTA forwards mail for the connections'
 * addresses here. It takes no logins (anyone may deliver, as to any MX) and refuses recipients it does not know.
 */
export async function startMailListener(options: MailListenerOptions): Promise<MailListener> {
  const serverOptions: SMTPServerOptions = {
    logger: false,
    authOptional: true,
    disabledCommands: options.tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : {}),
    size: options.maxMessageBytes,
    banner: 'Parley',
    // Senders keep pooled connections open; closing waits no longer than this for them.
    closeTimeout: 1_000,
    onRcptTo(address, _session, callback) {
      options.accepts(address.address).then(
        (accepted) => callback(accepted ? undefined : refusal(`No mailbox here for ${address.address}`, 550)),
        (error: unknown) => {
          options.onError(error);
          callback(refusal('Recipient check failed, try again later', 451));
        },
      );
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      let length = 0;
      stream.on('data', (chunk: Buffer) => {
        // Past the limit the rest is read and dropped: the stream must be drained before answering.
        length += chunk.length;
        if (length <= options.maxMessageBytes) chunks.push(chunk);
      });
      stream.on('error', (error: Error) => callback(error));
      stream.on('end', () => {
        if (stream.sizeExceeded || length > options.maxMessageBytes) {
          callback(refusal(`Message exceeds the fixed maximum message size of ${options.maxMessageBytes} bytes`, 552));
          return;
        }
        const raw = Buffer.concat(chunks);
        const recipients = [...new Set(session.envelope.rcptTo.map((rcpt) => rcpt.address))];
        // Every recipient or none: a retried message reaches the ones that already took it again, and the
        // domain stores a Message-ID once.
        Promise.all(recipients.map((recipient) => options.onMail(recipient, raw))).then(
          () => callback(),
          (error: unknown) => {
            options.onError(error);
            callback(refusal('Message not stored, try again later', 451));
          },
        );
      });
    },
  };
  const server = new SMTPServer(serverOptions);
  server.on('error', (error) => options.onError(error));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
