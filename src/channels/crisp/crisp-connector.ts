import { BlockedUrlError } from '../../net/address-policy.js';
import {
  ChannelError,
  type ChannelConnector,
  type ConnectionCheck,
  type ConnectorConnection,
  type InboundDelivery,
  type OutgoingChannelMessage,
  type ReceivedDelivery,
  type SentChannelMessage,
} from '../connector.js';
import { hostOf, networkReason } from '../network-failure.js';
import { CrispHookVerifier } from './crisp-hook-verification.js';
import { CRISP_SESSION_ID, parseCrispHook } from './crisp-message-hook.js';
import { callCrisp, CrispRefusal, type CrispApiAccess } from './crisp-rest-api.js';

/** A Crisp connection's settings, as the domain keeps them (defaults applied). */
export interface CrispSettings {
  websiteId: string;
  /** The plugin token's identifier (not secret on its own; the key is). */
  identifier: string;
  apiBaseUrl: string;
}

/** The plugin token's key; the hook URL's key Parley made; the plugin's hook signing secret, if Plugin Hooks deliver. */
export interface CrispSecrets {
  key: string;
  secretToken: string;
  signingSecret?: string;
}

export interface CrispConnectorOptions {
  /** How Crisp's REST API is reached: Parley's guarded fetch, through its outbound policy. */
  fetch: typeof fetch;
  /** The clock hook timestamps are checked against (tests move it). */
  now?: () => number;
}

type CrispConnection = ConnectorConnection<CrispSettings, CrispSecrets>;

/** What Crisp's operators read, privately, when the visitor asked for a person. */
export const HANDOVER_NOTE = 'The visitor asked for a person. Parley’s agent has stopped answering in this conversation: please reply here.';

/**
 * Crisp (`helpdesk`): its Web Hooks deliver what visitors write (`message:send`), verified by a key in the hook URL
 * and, for Plugin Hooks, Crisp's signature; answers go back through its REST API as an operator's text messages.
 * When a person is asked for, the conversation is handed to Crisp's operators: a private note tells them, the
 * conversation is marked unresolved in Crisp, and Parley's agent is switched off in it.
 *
 * Plain fetch rather than Crisp's `crisp-api` client: that client calls the global `fetch` (no way to give it
 * Parley's guarded one, so a user-given API URL would escape the outbound policy) and takes no abort signal.
 */
export class CrispConnector implements ChannelConnector<CrispSettings, CrispSecrets> {
  readonly #fetch: typeof fetch;
  readonly #verifier: CrispHookVerifier;

  constructor(options: CrispConnectorOptions) {
    this.#fetch = options.fetch;
    this.#verifier = new CrispHookVerifier(options.now);
  }

  async check(connection: CrispConnection, signal: AbortSignal): Promise<ConnectionCheck> {
    try {
      const website = await this.#call(connection, { method: 'GET', path: websitePath(connection) }, signal);
      const name = typeof website.name === 'string' ? website.name : connection.config.websiteId;
      return { ok: true, message: `Connected to the Crisp website ${name}`, details: { websiteName: name, websiteId: connection.config.websiteId } };
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      return { ok: false, message: toChannelError(error, 'read the website', connection).message };
    }
  }

  /** Crisp's hooks are set up by hand in Crisp (the hook URL and its events): nothing to tell it here. */
  async activate(): Promise<void> {}

  async deactivate(): Promise<void> {}

  pulls(): boolean {
    return false;
  }

  receive(connection: CrispConnection, delivery: InboundDelivery): ReceivedDelivery {
    this.#verifier.verify(delivery, { urlKey: connection.secrets.secretToken, signingSecret: connection.secrets.signingSecret });
    let hook: unknown;
    try {
      hook = JSON.parse(delivery.body.toString('utf8'));
    } catch {
      return { messages: [] };
    }
    const message = parseCrispHook(hook, connection.config.websiteId);
    return { messages: message ? [message] : [] };
  }

  async send(connection: CrispConnection, message: OutgoingChannelMessage, signal: AbortSignal): Promise<SentChannelMessage> {
    if (message.text.trim().length === 0) throw new ChannelError('There is nothing to send: the message is empty', false);
    if (!CRISP_SESSION_ID.test(message.channelExternalId)) throw new ChannelError('The conversation is not a Crisp conversation', false);
    const handOver = message.notice === 'humanRequested';
    try {
      // The operators are told first: if telling the visitor fails, the retry repeats a note, not a message to the visitor.
      if (handOver) await this.#handOver(connection, message.channelExternalId, signal);
      const sent = await this.#call(
        connection,
        {
          method: 'POST',
          path: messagePath(connection, message.channelExternalId),
          body: { type: 'text', from: 'operator', origin: 'chat', content: message.text },
        },
        signal,
      );
      const fingerprint = typeof sent.fingerprint === 'number' ? String(sent.fingerprint) : message.id;
      return { channelMessageId: fingerprint, ...(handOver ? { handedOver: true } : {}) };
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw toChannelError(error, 'send the message', connection);
    }
  }

  /** A private note for Crisp's operators, and the conversation marked unresolved so that it shows as waiting. */
  async #handOver(connection: CrispConnection, sessionId: string, signal: AbortSignal): Promise<void> {
    await this.#call(
      connection,
      { method: 'POST', path: messagePath(connection, sessionId), body: { type: 'note', from: 'operator', origin: 'chat', content: HANDOVER_NOTE } },
      signal,
    );
    await this.#call(
      connection,
      { method: 'PATCH', path: `${conversationPath(connection, sessionId)}/state`, body: { state: 'unresolved' } },
      signal,
    );
  }

  #call(connection: CrispConnection, request: Parameters<typeof callCrisp>[2], signal: AbortSignal): Promise<Record<string, unknown>> {
    const access: CrispApiAccess = {
      apiBaseUrl: connection.config.apiBaseUrl,
      identifier: connection.config.identifier,
      key: connection.secrets.key,
    };
    return callCrisp(this.#fetch, access, request, signal);
  }
}

const websitePath = (connection: CrispConnection): string => `website/${encodeURIComponent(connection.config.websiteId)}`;
const conversationPath = (connection: CrispConnection, sessionId: string): string =>
  `${websitePath(connection)}/conversation/${encodeURIComponent(sessionId)}`;
const messagePath = (connection: CrispConnection, sessionId: string): string => `${conversationPath(connection, sessionId)}/message`;

/**
 * Crisp's refusal or the network's failure in Parley's words: a refused token or a forbidden website is not
 * worth retrying, Crisp's rate limit and its own failures are; the network's error is named by its code only.
 */
function toChannelError(error: unknown, action: string, connection: CrispConnection): ChannelError {
  if (error instanceof ChannelError) return error;
  if (error instanceof CrispRefusal) {
    const { status, reason } = error;
    if (status === 401) return new ChannelError('Crisp refused the plugin token (identifier and key)', false);
    if (status === 403)
      return new ChannelError(
        `Crisp does not let the plugin token ${action} (${reason}): check the token’s scopes and that the plugin is installed on the website`,
        false,
      );
    if (status === 404) return new ChannelError(`Crisp does not know the website or the conversation (${reason}): cannot ${action}`, false);
    if (status === 429) return new ChannelError(`Crisp asks to slow down before it will ${action}`, true);
    if (status >= 500 || status < 400) return new ChannelError(`Crisp failed to ${action} (${status}); it will be tried again`, true);
    return new ChannelError(`Crisp refused to ${action} (${status}, ${reason})`, false);
  }
  const host = hostOf(connection.config.apiBaseUrl);
  if (error instanceof BlockedUrlError) return new ChannelError(`Parley’s outbound policy does not allow connecting to ${host}`, false);
  return new ChannelError(`Crisp could not be reached at ${host}${networkReason(error)} to ${action}`, true);
}
