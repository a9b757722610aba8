import type { SendMailOptions } from 'nodemailer';
import { escapeHtml } from '../../text/escape-html.js';
import type { OutgoingChannelMessage } from '../connector.js';
import { taggedAddress } from './reply-address.js';

/** Set on every mail Parley sends: mail carrying it that comes back in (a forward, a loop) is never answered. */
export const OWN_CONNECTION_HEADER = 'X-Parley-Connection';

const PARLEY_ID = /^parley\.[A-Za-z0-9._-]+@/;

/** Whether `id` (with or without its angle brackets) is a Message-ID Parley gave a mail it sent. */
export function isParleyMessageId(id: string): boolean {
  return PARLEY_ID.test(id.trim().replace(/^</, ''));
}

/** The Parley message id a Message-ID Parley gave names (`parley.<id>@domain`), or null for anyone else's. */
export function parleyMessageOf(id: string): string | null {
  const bare = id.trim().replace(/^</, '');
  return isParleyMessageId(bare) ? bare.slice('parley.'.length, bare.indexOf('@')) : null;
}

export interface ReplyOptions {
  from: { address: string; name: string | null };
  message: OutgoingChannelMessage;
  connectionId: string;
}

/**
 * A reply as nodemailer sends it: threaded under the conversation's earlier mail (In-Reply-To, References),
 * marked as ours, its reply address tagged with the conversation for mail programs that drop the headers.
 */
export function composeReply({ from, message, connectionId }: ReplyOptions): SendMailOptions {
  const domain = from.address.slice(from.address.lastIndexOf('@') + 1);
  // Only characters a msg-id allows, so the id survives every mail server unchanged.
  const localId = message.id.replace(/[^A-Za-z0-9._-]/g, '-');
  const thread = message.thread.map((id) => `<${id.trim().replace(/^<|>$/g, '')}>`);
  const replyTo = taggedAddress(from.address, message.conversationId);
  const headers: Record<string, string> = { [OWN_CONNECTION_HEADER]: connectionId };
  if (message.automatic) headers['Auto-Submitted'] = 'auto-replied';
  return {
    from: from.name ? { name: from.name, address: from.address } : from.address,
    ...(message.to?.email ? { to: message.to.email } : {}),
    subject: replySubject(message.title),
    messageId: `<parley.${localId}@${domain}>`,
    ...(thread.length > 0 ? { inReplyTo: thread[thread.length - 1], references: thread } : {}),
    ...(replyTo ? { replyTo } : {}),
    headers,
    text: message.text,
    html: textToHtml(message.text),
  };
}

function replySubject(title: string): string {
  const subject = title.replace(/\s+/g, ' ').trim();
  if (subject === '') return 'Re: your message';
  return /^re:/i.test(subject) ? subject : `Re: ${subject}`;
}

/**
 * The text as simple HTML: everything escaped (the agent's text is never trusted as markup), blank lines
 * make paragraphs, single line breaks stay, `**bold**` is bold. Links stay text: a mail program links them.
 */
export function textToHtml(text: string): string {
  const paragraphs = text
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '')
    .map(
      (paragraph) =>
        `<p>${escapeHtml(paragraph)
          .replace(/\*\*(\S(?:[^*]*\S)?)\*\*/g, '<strong>$1</strong>')
          .replace(/\n/g, '<br>\n')}</p>`,
    );
  return `<!doctype html>\n<html><body>\n${paragraphs.join('\n')}\n</body></html>\n`;
}
