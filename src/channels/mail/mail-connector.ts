import { createHash } from 'node:crypto';
import { ImapFlow, type ImapFlowOptions } from 'imapflow';
import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { OutboundPolicy } from '../../net/address-policy.js';
import { assertAllowedDestination } from '../../net/guarded-request.js';
import {
  ChannelError,
  type ChannelConnector,
  type ConnectionCheck,
  type ConnectorConnection,
  type OutgoingChannelMessage,
  type PollResult,
  type SentChannelMessage,
} from '../connector.js';
import { ImapMailbox } from './imap-mailbox.js';
import { mailFailure } from './mail-failure.js';
import { composeReply } from './outbound-mail.js';

/** A mail connection's settings as the connector uses them (the contract's `MailConfig` without the hints). */
export interface MailSettings {
  address: string;
  name: string | null;
  inbound: 'smtp' | 'imap';
  imap: { host: string; port: number; secure: boolean; user: string; mailbox: string } | null;
  smtp: { host: string; port: number; secure: boolean; user: string | null } | null;
  aiReplies: boolean;
}

export interface MailSecrets {
  imapPassword?: string;
  smtpPassword?: string;
}

export interface MailConnectorOptions {
  maxAttachmentBytes: number;
  /** The instance's own SMTP server: replies of connections without an `smtp` of their own go out through it. */
  fallbackTransport?: SMTPTransport.Options | null;
  /** Where Parley may connect (PARLEY_OUTBOUND_ALLOW): checked before every IMAP and SMTP connection a user's settings name. */
  policy?: OutboundPolicy;
  /** Connection, greeting and socket timeouts. Default 30 s. */
  timeoutMs?: number;
  /** How often a mailbox without IDLE is asked again during a poll. Default 30 s. */
  fallbackPollMs?: number;
  /** Told of each mail a mailbox poll passes over (an auto-reply, a bounce, Parley's own), for the log. */
  onSkipped?: (connectionId: string, reason: string) => void;
}

type MailConnection = ConnectorConnection<MailSettings, MailSecrets>;

const MAIL_PROTOCOLS = ['imap:', 'imaps:', 'smtp:', 'smtps:'];

/**
 * E-mail as a channel: mail comes in through Parley's SMTP listener or a mailbox read over IMAP, replies
 * go out over SMTP threaded under the mail they answer.
 */
export class MailConnector implements ChannelConnector<MailSettings, MailSecrets> {
  readonly #mailboxes = new Map<string, { key: string; mailbox: ImapMailbox }>();
  readonly #transports = new Map<string, { key: string; transport: Transporter<SMTPTransport.SentMessageInfo> }>();
  readonly #timeoutMs: number;
  #fallback: Transporter<SMTPTransport.SentMessageInfo> | null = null;

  constructor(private readonly options: MailConnectorOptions) {
    this.#timeoutMs = options.timeoutMs ?? 30_000;
  }

  pulls(connection: MailConnection): boolean {
    return connection.config.inbound === 'imap';
  }

  async check(connection: MailConnection, signal: AbortSignal): Promise<ConnectionCheck> {
    const { imap, smtp, inbound } = connection.config;
    const details: Record<string, string> = {};
    const said: string[] = [];
    if (inbound === 'imap') {
      if (imap === null) return { ok: false, message: 'No IMAP mailbox is set for this address' };
      try {
        signal.throwIfAborted();
        await this.#allowed('imap', imap.host, imap.port);
        const client = new ImapFlow({ ...this.#imapOptions(connection), disableAutoIdle: true });
        client.on('error', () => undefined);
        try {
          await client.connect();
          const status = await client.status(imap.mailbox, { messages: true });
          if (status === false) return { ok: false, message: `The mailbox ${imap.mailbox} cannot be read` };
          details.messages = String(status.messages ?? 0);
          said.push(`the mailbox ${imap.mailbox} holds ${details.messages} messages`);
        } finally {
          await client.logout().catch(() => client.close());
        }
      } catch (error) {
        return { ok: false, message: this.#mailboxFailure(imap, error).message };
      }
    }
    if (smtp !== null) {
      try {
        signal.throwIfAborted();
        await this.#allowed('smtp', smtp.host, smtp.port);
        await this.#transport(connection).verify();
        said.push(`the SMTP server ${smtp.host}:${smtp.port} takes replies`);
      } catch (error) {
        return { ok: false, message: mailFailure('SMTP', `${smtp.host}:${smtp.port}`, error).message };
      }
    } else if (this.options.fallbackTransport) {
      said.push('replies go out through this Parley’s own mail server');
    } else {
      return { ok: false, message: 'No SMTP server is set for this address' };
    }
    if (inbound === 'smtp') said.push(`mail for ${connection.config.address} comes in through Parley’s SMTP listener`);
    return { ok: true, message: `Connected: ${said.join('; ')}`, details };
  }

  async activate(): Promise<void> {
    // Nothing to tell a mail server: the listener is always on, and a mailbox is opened by the first poll.
  }

  async deactivate(connection: MailConnection): Promise<void> {
    const kept = this.#mailboxes.get(connection.id);
    this.#mailboxes.delete(connection.id);
    await kept?.mailbox.close();
    const transport = this.#transports.get(connection.id);
    this.#transports.delete(connection.id);
    transport?.transport.close();
  }

  async poll(connection: MailConnection, cursor: string | null, waitMs: number, signal: AbortSignal): Promise<PollResult> {
    const { imap } = connection.config;
    if (connection.config.inbound !== 'imap' || imap === null) throw new ChannelError('This address does not read a mailbox', false);
    try {
      await this.#allowed('imap', imap.host, imap.port);
      return await this.#mailbox(connection).poll(cursor, waitMs, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      throw this.#mailboxFailure(imap, error);
    }
  }

  async send(connection: MailConnection, message: OutgoingChannelMessage, signal: AbortSignal): Promise<SentChannelMessage> {
    const { smtp, address, name } = connection.config;
    if (!message.to?.email) throw new ChannelError('The reply has no recipient address', false);
    if (smtp === null && !this.options.fallbackTransport) throw new ChannelError('No SMTP server is set for this address', false);
    const server = smtp ? `${smtp.host}:${smtp.port}` : 'of this Parley';
    signal.throwIfAborted();
    const mail = composeReply({ from: { address, name }, message, connectionId: connection.id });
    try {
      if (smtp) await this.#allowed('smtp', smtp.host, smtp.port);
      const info = await this.#transport(connection).sendMail(mail);
      const id = String(mail.messageId ?? info.messageId);
      return { channelMessageId: id.replace(/^<|>$/g, '') };
    } catch (error) {
      throw mailFailure('SMTP', server, error);
    }
  }

  /** Closes every kept session and pooled SMTP connection (at shutdown). */
  async close(): Promise<void> {
    const mailboxes = [...this.#mailboxes.values()];
    this.#mailboxes.clear();
    await Promise.all(mailboxes.map(({ mailbox }) => mailbox.close()));
    for (const { transport } of this.#transports.values()) transport.close();
    this.#transports.clear();
    this.#fallback?.close();
    this.#fallback = null;
  }

  #mailboxFailure(imap: NonNullable<MailSettings['imap']>, error: unknown): ChannelError {
    const { responseText, code } = (error ?? {}) as { responseText?: unknown; code?: unknown };
    if (code === 'NotFound' || (typeof responseText === 'string' && /NONEXISTENT|doesn't exist|does not exist/i.test(responseText))) {
      return new ChannelError(`The mailbox ${imap.mailbox} does not exist on ${imap.host}`, false, { cause: error });
    }
    return mailFailure('IMAP', `${imap.host}:${imap.port}`, error);
  }

  async #allowed(protocol: 'imap' | 'smtp', host: string, port: number): Promise<void> {
    if (!this.options.policy) return;
    const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
    await assertAllowedDestination(new URL(`${protocol}://${bracketed}:${port}`), this.options.policy, MAIL_PROTOCOLS);
  }

  #imapOptions(connection: MailConnection): ImapFlowOptions {
    const imap = connection.config.imap;
    if (imap === null) throw new ChannelError('No IMAP mailbox is set for this address', false);
    return {
      host: imap.host,
      port: imap.port,
      secure: imap.secure,
      auth: { user: imap.user, pass: connection.secrets.imapPassword ?? '' },
      logger: false,
      connectionTimeout: this.#timeoutMs,
      greetingTimeout: this.#timeoutMs,
    };
  }

  /** The kept mailbox session of `connection`, made again when its settings or password changed. */
  #mailbox(connection: MailConnection): ImapMailbox {
    const imap = connection.config.imap;
    if (imap === null) throw new ChannelError('No IMAP mailbox is set for this address', false);
    const key = settingsKey(imap, connection.secrets.imapPassword);
    const kept = this.#mailboxes.get(connection.id);
    if (kept?.key === key) return kept.mailbox;
    void kept?.mailbox.close();
    const mailbox = new ImapMailbox({
      client: this.#imapOptions(connection),
      mailbox: imap.mailbox,
      connectionId: connection.id,
      maxAttachmentBytes: this.options.maxAttachmentBytes,
      fallbackIntervalMs: this.options.fallbackPollMs ?? 30_000,
      batchSize: 50,
      onSkipped: (reason) => this.options.onSkipped?.(connection.id, reason),
    });
    this.#mailboxes.set(connection.id, { key, mailbox });
    return mailbox;
  }

  /** The SMTP transport of `connection` (pooled, one per connection and settings), or the instance's own. */
  #transport(connection: MailConnection): Transporter<SMTPTransport.SentMessageInfo> {
    const smtp = connection.config.smtp;
    if (smtp === null) {
      if (!this.options.fallbackTransport) throw new ChannelError('No SMTP server is set for this address', false);
      this.#fallback ??= nodemailer.createTransport({ pool: true, ...this.options.fallbackTransport });
      return this.#fallback;
    }
    const key = settingsKey(smtp, connection.secrets.smtpPassword);
    const kept = this.#transports.get(connection.id);
    if (kept?.key === key) return kept.transport;
    kept?.transport.close();
    const password = connection.secrets.smtpPassword;
    const transport = nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure,
      ...(smtp.user && password ? { auth: { user: smtp.user, pass: password } } : {}),
      pool: true,
      maxConnections: 2,
      connectionTimeout: this.#timeoutMs,
      greetingTimeout: this.#timeoutMs,
      socketTimeout: this.#timeoutMs,
      logger: false,
    });
    this.#transports.set(connection.id, { key, transport });
    return transport;
  }
}

/** Settings and a digest of the password: a changed password makes a new session, and is never kept in clear as a key. */
function settingsKey(settings: object, password: string | undefined): string {
  return `${JSON.stringify(settings)}:${createHash('sha256')
    .update(password ?? '')
    .digest('hex')}`;
}
