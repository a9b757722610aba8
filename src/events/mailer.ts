import nodemailer, { type Transporter } from 'nodemailer';
import type { RenderedEmail } from './notification-email.js';

export interface MailerOptions {
  /** `smtp://user:pass@host:port` or `smtps://…`; query options such as `?ignoreTLS=true` are nodemailer's. */
  smtpUrl: string;
  from: string;
  timeoutMs: number;
}

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

  async send(to: readonly string[], email: RenderedEmail): Promise<void> {
    await this.#transport.sendMail({ from: this.options.from, to: [...to], ...email });
  }

  close(): void {
    this.#transport.close();
  }
}
