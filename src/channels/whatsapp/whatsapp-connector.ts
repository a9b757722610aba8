import {
  ChannelError,
  UnverifiedDeliveryError,
  type ChannelConnector,
  type ConnectionCheck,
  type ConnectorConnection,
  type InboundAttachment,
  type InboundChannelMessage,
  type InboundDelivery,
  type OutgoingChannelMessage,
  type ReceivedDelivery,
  type SentChannelMessage,
} from '../connector.js';
import { sameSecret } from '../same-secret.js';
import { GraphApi, MediaTooLargeError } from './graph-api.js';
import { OUTSIDE_WINDOW, toChannelError } from './whatsapp-errors.js';
import { verifyWhatsAppSignature } from './whatsapp-signature.js';
import { splitForWhatsApp, toWhatsAppText } from './whatsapp-text.js';
import { parseWhatsAppWebhook, type WhatsAppInbound } from './whatsapp-webhook.js';

/** A WhatsApp connection's settings, as the domain keeps them (defaults already applied). */
export interface WhatsAppSettings {
  phoneNumberId: string;
  /** What Meta must send back when it checks the callback URL. */
  verifyToken: string;
  /** The Graph API root with its version, or a test server. */
  graphApiBaseUrl: string;
  /** An approved template without variables, sent outside the 24-hour window; null: no message goes out then. */
  templateName: string | null;
  templateLanguage: string | null;
}

/** A system user's access token, and the app secret every delivery is signed with. */
export interface WhatsAppSecrets {
  accessToken: string;
  appSecret: string;
}

export interface WhatsAppConnectorOptions {
  /** How the Graph API is reached (Parley's guarded fetch, through its outbound policy); the global fetch otherwise. */
  fetch?: typeof fetch;
  /** Larger media are not downloaded: the message names them as dropped. */
  maxAttachmentBytes: number;
  /** The clock the 24-hour window is measured by (ms). */
  now?: () => number;
}

type WhatsAppConnection = ConnectorConnection<WhatsAppSettings, WhatsAppSecrets>;

// WhatsApp's customer-service window: free-form messages only this long after the person last wrote.
const SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;
// How long one media download may take while the webhook waits.
const MEDIA_TIMEOUT_MS = 20_000;
// Goes into request headers: visible ASCII only, or fetch's error would quote it.
const ACCESS_TOKEN = /^[\x21-\x7e]{1,4096}$/;

/**
 * The WhatsApp Business Platform's Cloud API through plain `fetch`: Meta delivers to the connection's
 * inboundUrl (checked once with the verify token, then every delivery signed with the app secret), and
 * answers go out through the Graph API's messages endpoint: free-form within 24 hours of the person's last
 * message, the configured template after that. There is no maintained Node client worth its weight.
 */
export class WhatsAppConnector implements ChannelConnector<WhatsAppSettings, WhatsAppSecrets> {
  readonly #fetch: typeof fetch;
  readonly #maxAttachmentBytes: number;
  readonly #now: () => number;

  constructor(options: WhatsAppConnectorOptions) {
    this.#fetch = options.fetch ?? fetch;
    this.#maxAttachmentBytes = options.maxAttachmentBytes;
    this.#now = options.now ?? Date.now;
  }

  async check(connection: WhatsAppConnection, signal: AbortSignal): Promise<ConnectionCheck> {
    try {
      const number = await this.#api(connection).get(
        encodeURIComponent(connection.config.phoneNumberId),
        { fields: 'display_phone_number,verified_name' },
        signal,
      );
      const displayPhoneNumber = typeof number.display_phone_number === 'string' ? number.display_phone_number : '';
      const verifiedName = typeof number.verified_name === 'string' ? number.verified_name : '';
      return {
        ok: true,
        message: `Connected to ${verifiedName || 'the number'} (${displayPhoneNumber})`,
        details: { displayPhoneNumber, verifiedName },
      };
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      return { ok: false, message: this.#failure(error, 'look up the phone number', connection).message };
    }
  }

  /** The callback URL and the verify token are pasted at Meta by a person; Parley only checks Meta can use the URL. */
  async activate(connection: WhatsAppConnection): Promise<void> {
    const url = connection.inboundUrl;
    if (url === null) throw new ChannelError('WhatsApp needs a public URL to deliver to: set PARLEY_PUBLIC_URL', false);
    if (!url.startsWith('https://') && isMetaItself(connection.config.graphApiBaseUrl)) {
      throw new ChannelError('Meta delivers only to https callback URLs, and Parley’s public URL is not one: make PARLEY_PUBLIC_URL https', false);
    }
    return Promise.resolve();
  }

  /** Meta keeps the callback URL until a person changes it; deliveries to a removed connection are refused (404). */
  async deactivate(): Promise<void> {
    return Promise.resolve();
  }

  pulls(): boolean {
    return false;
  }

  /** Meta's check of the callback URL: `hub.mode=subscribe`, the verify token, and a challenge to echo. */
  handshake(connection: WhatsAppConnection, query: Readonly<Record<string, string>>): string {
    const challenge = query['hub.challenge'];
    const token = query['hub.verify_token'];
    if (query['hub.mode'] !== 'subscribe' || token === undefined || challenge === undefined || !sameSecret(token, connection.config.verifyToken)) {
      throw new UnverifiedDeliveryError('The verification request does not carry this connection’s verify token');
    }
    return challenge;
  }

  async receive(connection: WhatsAppConnection, delivery: InboundDelivery): Promise<ReceivedDelivery> {
    verifyWhatsAppSignature(delivery, connection.secrets.appSecret);
    let payload: unknown;
    try {
      payload = JSON.parse(delivery.body.toString('utf8'));
    } catch {
      return { messages: [] }; // signed by Meta yet not JSON: nothing in it to store
    }
    const { messages, receipts } = parseWhatsAppWebhook(payload, connection.config.phoneNumberId);
    const withFiles: InboundChannelMessage[] = [];
    for (const inbound of messages) withFiles.push(await this.#withMedia(connection, inbound));
    return { messages: withFiles, receipts };
  }

  async send(connection: WhatsAppConnection, message: OutgoingChannelMessage, signal: AbortSignal): Promise<SentChannelMessage> {
    const parts = splitForWhatsApp(toWhatsAppText(message.text));
    if (parts.length === 0) throw new ChannelError('There is nothing to send: the message is empty', false);
    const { templateName, templateLanguage, phoneNumberId } = connection.config;
    const base = { messaging_product: 'whatsapp', recipient_type: 'individual', to: message.channelExternalId };
    const bodies = this.#withinWindow(message.lastInboundAt)
      ? parts.map((body) => ({ ...base, type: 'text', text: { body, preview_url: false } }))
      : templateName !== null && templateLanguage !== null
        ? [{ ...base, type: 'template', template: { name: templateName, language: { code: templateLanguage } } }]
        : undefined;
    // Never a silent drop: outside the window without a template, the inbox says why the message did not go out.
    if (bodies === undefined) throw new ChannelError(OUTSIDE_WINDOW, false);
    const api = this.#api(connection);
    let lastId = '';
    try {
      for (const body of bodies) lastId = sentIdOf(await api.post(`${encodeURIComponent(phoneNumberId)}/messages`, body, signal));
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw this.#failure(error, 'send the message', connection);
    }
    // The last part's id: its statuses (delivered, read) are the message's.
    return { channelMessageId: lastId };
  }

  #withinWindow(lastInboundAt: string | null): boolean {
    if (lastInboundAt === null) return false;
    const since = this.#now() - Date.parse(lastInboundAt);
    return since < SERVICE_WINDOW_MS;
  }

  /** The message with its media downloaded; a file too large, or one Meta no longer serves, is named as dropped. */
  async #withMedia(connection: WhatsAppConnection, { message, media }: WhatsAppInbound): Promise<InboundChannelMessage> {
    if (media.length === 0) return message;
    const attachments: InboundAttachment[] = [];
    const dropped: string[] = [];
    const api = this.#api(connection);
    for (const file of media) {
      try {
        const content = await api.media(file.mediaId, this.#maxAttachmentBytes, AbortSignal.timeout(MEDIA_TIMEOUT_MS));
        attachments.push({ name: file.name, mimeType: file.mimeType, content });
      } catch (error) {
        // A download that failed for another reason is named all the same: the message is kept, not lost with it.
        dropped.push(error instanceof MediaTooLargeError ? file.name : `${file.name} (could not be downloaded)`);
      }
    }
    return { ...message, attachments, ...(dropped.length === 0 ? {} : { droppedAttachments: dropped }) };
  }

  #api(connection: WhatsAppConnection): GraphApi {
    const { accessToken } = connection.secrets;
    if (!ACCESS_TOKEN.test(accessToken)) throw new ChannelError('The access token is not one Meta gives (letters and digits, no spaces)', false);
    return new GraphApi({ fetch: this.#fetch, baseUrl: connection.config.graphApiBaseUrl, accessToken });
  }

  #failure(error: unknown, action: string, connection: WhatsAppConnection): ChannelError {
    return toChannelError(error, action, connection.config.graphApiBaseUrl, connection.secrets.accessToken);
  }
}

/** The id WhatsApp gave a sent message (`messages[0].id`). */
function sentIdOf(answer: Record<string, unknown>): string {
  const [first] = Array.isArray(answer.messages) ? (answer.messages as unknown[]) : [];
  const id = typeof first === 'object' && first !== null && 'id' in first ? first.id : undefined;
  if (typeof id !== 'string') throw new ChannelError('WhatsApp’s answer named no message id: the message may have gone out', false);
  return id;
}

function isMetaItself(graphApiBaseUrl: string): boolean {
  try {
    return new URL(graphApiBaseUrl).hostname.endsWith('facebook.com');
  } catch {
    return true;
  }
}
