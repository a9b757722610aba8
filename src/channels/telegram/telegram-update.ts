import { isJsonObject } from '../../text/json-object.js';
import type { ChannelIdentity, InboundChannelMessage } from '../connector.js';

/**
 * One Bot API `Update` (from a webhook delivery or getUpdates) as Parley's message, or undefined when it carries
 * nothing to answer: an edit, a channel post, a service message (someone joined), a sticker, a message from a
 * bot, or anything not shaped like Telegram's. Never throws: the update comes from outside.
 *
 * Only the text, or a photo's or a document's caption, is read; files are not downloaded.
 */
export function parseTelegramUpdate(update: unknown): InboundChannelMessage | undefined {
  // Only new messages: an edited message would be answered twice, a channel post has no one to answer.
  if (!isJsonObject(update) || !isJsonObject(update.message)) return undefined;
  const message = update.message;
  const { chat, from } = message;
  if (!isSafeInteger(message.message_id) || !isJsonObject(chat) || !isSafeInteger(chat.id) || !isJsonObject(from) || !isSafeInteger(from.id)) {
    return undefined;
  }
  if (chat.type !== 'private' && chat.type !== 'group' && chat.type !== 'supergroup') return undefined;
  // Another bot (or a group's anonymous admin, which Telegram presents as one): answering bots risks a loop.
  if (from.is_bot === true) return undefined;
  const text = typeof message.text === 'string' ? message.text : typeof message.caption === 'string' ? message.caption : undefined;
  if (text === undefined || text.trim().length === 0) return undefined;

  const context: Record<string, string> = { chatType: chat.type };
  if (typeof chat.title === 'string') context.chatTitle = chat.title;
  if (typeof from.username === 'string') context.username = from.username;
  const reply = message.reply_to_message;
  const command = typeof message.text === 'string' ? commandOf(message.text) : undefined;
  return {
    channelExternalId: String(chat.id),
    channelMessageId: `${chat.id}:${message.message_id}`,
    text,
    from: identityOf(from, from.id),
    attachments: [],
    context,
    inReplyTo: isJsonObject(reply) && isSafeInteger(reply.message_id) ? [`${chat.id}:${reply.message_id}`] : [],
    ...(command === undefined ? {} : { command }),
  };
}

function identityOf(from: Record<string, unknown>, id: number): ChannelIdentity {
  const firstName = optionalString(from.first_name);
  const lastName = optionalString(from.last_name);
  const username = optionalString(from.username);
  const displayName = [firstName, lastName].filter(Boolean).join(' ') || (username && `@${username}`) || undefined;
  return {
    externalId: String(id),
    ...(firstName === undefined ? {} : { firstName }),
    ...(lastName === undefined ? {} : { lastName }),
    ...(username === undefined ? {} : { username }),
    ...(displayName === undefined ? {} : { displayName }),
  };
}

/** `/start`, `/start@parley_bot`, `/help payload` → `start`, `start`, `help`; other text → undefined. */
function commandOf(text: string): string | undefined {
  const match = /^\/([A-Za-z0-9_]{1,32})(?:@[A-Za-z0-9_]{1,64})?(?:\s|$)/.exec(text);
  return match?.[1]?.toLowerCase();
}

const isSafeInteger = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);

const optionalString = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);
