import nodemailer, { type Transporter } from 'nodemailer';
import type { OutboundPolicy } from '../net/address-policy.js';
import { assertAllowedDestination } from '../net/guarded-request.js';
import type { RenderedEmail } from './notification-email.js';

export interface MailerOptions {
  /** `smtp://user:pass@host:port` or `smtps://…`; query options such as `?ignoreTLS=true` are nodemailer's. */
  smtpUrl: string;
  from: string;
  timeoutMs: number;
  /** Where Parley may connect (PARLEY_OUTBOUND_ALLOW); the SMTP server is checked before each message. */
  policy: OutboundPolicy;
}

const SMTP_PROTOCOLS = ['smtp:', 'smtps:'];

/** Sends e-mail over SMTP through one pooled connection per process. */
export class Mailer {
  readonly #transport: Transporter;

  constructor(private readonly options: MailerOptions) {
    this.#transport = nodemailer.createTransport({
      url: options.smtpUrl,
      pool: true,
      connectionTimeout: options.timeoutMs,
      greetingTimeout: options.timeoutMs,
      socketTimeout: options.timeoutMs,
    });
  }

  /**
   * Sends one message. The server's host is checked first (nodemailer resolves and connects on its own, so
   * this check is on the name's addresses now, not on the socket's).
   */
  async send(to: readonly string[], email: RenderedEmail): Promise<void> {
    await assertAllowedDestination(new URL(this.options.smtpUrl), this.options.policy, SMTP_PROTOCOLS);
    await this.#transport.sendMail({ from: this.options.from, to: [...to], ...email });
  }

  close(): void {
    this.#transport.close();
  }
}
