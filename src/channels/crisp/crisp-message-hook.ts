import { isJsonObject } from '../../text/json-object.js';
import type { ChannelIdentity, InboundChannelMessage } from '../connector.js';

/** Crisp's conversation ids: `session_` and a UUID. Checked before one becomes part of a REST path. */
export const CRISP_SESSION_ID = /^session_[A-Za-z0-9-]{1,100}$/;

/**
 * One Crisp hook (`{website_id, event, data, timestamp}`) as Parley's message, or undefined when it carries
 * nothing to answer. Only `message:send` (a visitor wrote) of type `text` on the connection's own website is
 * read: an operator's or a plugin's message comes as `message:received` (or `from: operator`), so what Parley
 * sends never comes back as a question; files, animations, pickers and the rest are not read (the inbox does
 * not show them). Never throws: the hook comes from outside.
 */
export function parseCrispHook(hook: unknown, websiteId: string): InboundChannelMessage | undefined {
  if (!isJsonObject(hook) || hook.event !== 'message:send' || !isJsonObject(hook.data)) return undefined;
  const data = hook.data;
  // Plugin Hooks deliver every website that installed the plugin: only this connection's is its business.
  if ((data.website_id ?? hook.website_id) !== websiteId) return undefined;
  if (data.from !== 'user' || data.type !== 'text' || typeof data.content !== 'string' || data.content.trim().length === 0) return undefined;
  if (typeof data.session_id !== 'string' || !CRISP_SESSION_ID.test(data.session_id)) return undefined;
  if (typeof data.fingerprint !== 'number' || !Number.isSafeInteger(data.fingerprint)) return undefined;
  const context: Record<string, string> = {};
  if (typeof data.origin === 'string' && data.origin.length <= 200) context.origin = data.origin;
  return {
    channelExternalId: data.session_id,
    // Crisp's id of the message, the same in every delivery of it.
    channelMessageId: String(data.fingerprint),
    text: data.content,
    from: identityOf(isJsonObject(data.user) ? data.user : {}, data.session_id),
    attachments: [],
    context,
    inReplyTo: [],
  };
}

function identityOf(user: Record<string, unknown>, sessionId: string): ChannelIdentity {
  const nickname = typeof user.nickname === 'string' && user.nickname.trim().length > 0 ? user.nickname.trim() : undefined;
  return {
    externalId: typeof user.user_id === 'string' && user.user_id.length > 0 ? user.user_id : sessionId,
    ...(nickname === undefined ? {} : { displayName: nickname }),
  };
}
