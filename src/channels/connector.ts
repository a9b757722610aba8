/**
 * What every channel connector is: the vendor's protocol on one side (a webhook it calls, a mailbox or an
 * update feed to poll, an API to send through), Parley's messages on the other. Connectors know nothing of
 * the store or of conversations: the domain (`domain/channel-connections/`) finds the connection, opens its secrets,
 * hands what arrives to the conversation intake and sends what the conversation says.
 */

/** A connection's settings and secrets as a connector uses them (secrets opened, never stored in clear). */
export interface ConnectorConnection<Config = object, Secrets = object> {
  id: string;
  config: Config;
  secrets: Secrets;
  /** Where the vendor delivers to (`<public URL>/channels/{id}/inbound`); null when Parley has no public URL. */
  inboundUrl: string | null;
}

/** A file that came with a message (an e-mail attachment, a messenger photo), already size-capped. */
export interface InboundAttachment {
  name: string;
  mimeType: string;
  content: Uint8Array;
}

/** Who wrote, as the vendor knows them. */
export interface ChannelIdentity {
  /** The vendor's id of the person (a Telegram user id, an e-mail address). */
  externalId: string;
  displayName?: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  phoneNumber?: string;
  /** A handle (`@name`). */
  username?: string;
}

/** One verified message from outside, in Parley's terms. */
export interface InboundChannelMessage {
  /** The vendor's thread: a Telegram chat id, an e-mail thread's first Message-ID. One conversation per thread. */
  channelExternalId: string;
  /** The vendor's id of this message: a message delivered again is stored once. */
  channelMessageId: string;
  text: string;
  from: ChannelIdentity;
  attachments: InboundAttachment[];
  /** Names of attachments too large to keep: the message lists them, without their content. */
  droppedAttachments?: string[];
  /** What the inbox shows beside the thread (an e-mail's subject, a Telegram chat's title). */
  context: Record<string, string>;
  /** Ids of earlier messages this one answers (an e-mail's In-Reply-To and References), newest last. */
  inReplyTo: string[];
  /** A command rather than a question (Telegram's `/start`): greeted, not answered. */
  command?: string;
  /**
   * The Parley conversation the sender named, when the protocol carries one (the reply address
   * `support+<conversationId>@…` of an e-mail whose threading headers were lost); checked by the domain.
   */
  conversationHint?: string;
  /**
   * The Parley message this one answers, when the protocol carries it (the Message-ID `parley.<messageId>@…`
   * Parley gave its mail, named in In-Reply-To by a mail program that sends no References); checked by the domain.
   */
  repliedMessageHint?: string;
}

/** A message Parley sends out through a connection. */
export interface OutgoingChannelMessage {
  /** Parley's message id: a stable key for the vendor's idempotency where it has one, and for threading. */
  id: string;
  conversationId: string;
  /** Written by the agent or the server rather than a person (an e-mail's `Auto-Submitted: auto-replied`). */
  automatic: boolean;
  /** The thread the conversation belongs to (see {@link InboundChannelMessage.channelExternalId}). */
  channelExternalId: string;
  text: string;
  /** The conversation's title (an e-mail's subject). */
  title: string;
  /** Vendor ids of the thread's messages so far, oldest first (an e-mail's References). */
  thread: string[];
  /** Who receives it, where the thread alone does not say (an e-mail address). */
  to: ChannelIdentity | null;
  /** When the person last wrote in this thread (WhatsApp's 24-hour window); null when they never did. */
  lastInboundAt: string | null;
  /** A notice of the conversation's state rather than words (`humanRequested`: a person was asked for), by its kind. */
  notice: string | null;
}

/** What the vendor answered to a send. */
export interface SentChannelMessage {
  /** The vendor's id of what was sent (the Message-ID we gave an e-mail, Telegram's message id). */
  channelMessageId: string;
  /**
   * The vendor's own people took the conversation over with this message (a person was asked for, and Crisp's
   * operators were told): the agent is switched off in it, as when a member takes it over.
   */
  handedOver?: boolean;
}

/** The result of a connection's test action, in words a person can act on. */
export interface ConnectionCheck {
  ok: boolean;
  message: string;
  /** What the vendor told about the account (a bot's username, a mailbox's message count). */
  details?: Record<string, string>;
}

/**
 * A failure to send or to check that is the vendor's or the settings' (refused credentials, an unknown
 * chat): `retryable` says whether trying again later may succeed. Its message is written for the inbox,
 * never the vendor's raw answer with a secret in it.
 */
export class ChannelError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ChannelError';
  }
}

/** An inbound delivery whose secret or signature is missing or wrong: answered 401, nothing parsed. */
export class UnverifiedDeliveryError extends Error {
  constructor(message = 'The delivery is not signed with this connection’s secret') {
    super(message);
    this.name = 'UnverifiedDeliveryError';
  }
}

/** A raw webhook delivery as it reached Parley: headers (lower-case names) and the body's bytes, unparsed. */
export interface InboundDelivery {
  headers: Readonly<Record<string, string | string[] | undefined>>;
  body: Buffer;
  /** The inbound URL's query (Crisp's Website Hooks carry the connection's key there: they are not signed). */
  query?: Readonly<Record<string, string>>;
}

/** A delivery's header `name` (lower case), its first value if the vendor repeated it. */
export function headerOf(delivery: InboundDelivery, name: string): string | undefined {
  const value = delivery.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** How a message Parley sent fared at the vendor, as the vendor reported it later (WhatsApp's statuses). */
export interface DeliveryReceipt {
  /** The thread the message went to (see {@link InboundChannelMessage.channelExternalId}). */
  channelExternalId: string;
  /** The vendor's id of the message, as {@link SentChannelMessage.channelMessageId} gave it. */
  channelMessageId: string;
  state: 'sent' | 'delivered' | 'read' | 'failed';
  /** Why it failed, in Parley's words. */
  error?: string;
}

/** What one webhook delivery carried. */
export interface ReceivedDelivery {
  messages: InboundChannelMessage[];
  receipts?: DeliveryReceipt[];
  /**
   * The body the vendor expects in answer (Slack's `url_verification` challenge, a slash command's
   * acknowledgement); without it the answer is `{"ok": true}`.
   */
  reply?: { contentType: string; body: string };
}

/** One pass of a pulling connector: what arrived, and where the next pass starts. */
export interface PollResult {
  messages: InboundChannelMessage[];
  /** Saved only once the messages are stored; opaque to the caller. */
  cursor: string | null;
}

/**
 * One channel's protocol. A connector is stateless between calls apart from connections it keeps open
 * (an IMAP session); every method takes the connection it acts for.
 */
export interface ChannelConnector<Config = object, Secrets = object> {
  /** Logs in, asks the vendor who the account is; never throws for the vendor's refusal (`ok: false`). */
  check(connection: ConnectorConnection<Config, Secrets>, signal: AbortSignal): Promise<ConnectionCheck>;
  /** After a connection is made, changed or enabled: tells the vendor where to deliver (Telegram's setWebhook). */
  activate(connection: ConnectorConnection<Config, Secrets>, signal: AbortSignal): Promise<void>;
  /** After it is disabled or deleted: tells the vendor to stop delivering. Best effort. */
  deactivate(connection: ConnectorConnection<Config, Secrets>, signal: AbortSignal): Promise<void>;
  /** Throws {@link ChannelError} for the vendor's refusal, anything else for a failure worth retrying. */
  send(connection: ConnectorConnection<Config, Secrets>, message: OutgoingChannelMessage, signal: AbortSignal): Promise<SentChannelMessage>;
  /** Webhook deliveries: throws {@link UnverifiedDeliveryError} before parsing anything unverified; no messages for updates that carry none. */
  receive?(connection: ConnectorConnection<Config, Secrets>, delivery: InboundDelivery): ReceivedDelivery | Promise<ReceivedDelivery>;
  /**
   * A vendor checking the webhook address with a GET before it delivers (WhatsApp's `hub.challenge`):
   * the body to answer with, or {@link UnverifiedDeliveryError} when the request does not carry the connection's token.
   */
  handshake?(connection: ConnectorConnection<Config, Secrets>, query: Readonly<Record<string, string>>): string;
  /** Pulling connections: waits up to `waitMs` for what arrived after `cursor`. */
  poll?(connection: ConnectorConnection<Config, Secrets>, cursor: string | null, waitMs: number, signal: AbortSignal): Promise<PollResult>;
  /** Whether `connection` pulls (a mailbox, Telegram without a webhook) rather than being delivered to. */
  pulls(connection: ConnectorConnection<Config, Secrets>): boolean;
  /** Shown while an answer is being written (Telegram's "typing…"); best effort. */
  typing?(connection: ConnectorConnection<Config, Secrets>, channelExternalId: string, signal: AbortSignal): Promise<void>;
}
