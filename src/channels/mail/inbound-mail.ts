import { createHash } from 'node:crypto';
import { simpleParser, type AddressObject, type HeaderValue, type ParsedMail } from 'mailparser';
import type { ChannelIdentity, InboundAttachment, InboundChannelMessage } from '../connector.js';
import { isParleyMessageId, OWN_CONNECTION_HEADER, parleyMessageOf } from './outbound-mail.js';
import { visibleReplyText } from './reply-text.js';
import { conversationTagOf } from './reply-address.js';

export interface InboundMailOptions {
  /** Larger attachments are dropped, their names listed in `context.droppedAttachments`. */
  maxAttachmentBytes: number;
  /** The connection the mail came in through: named in the reason when it is this connection's own reply. */
  ownConnectionId: string;
  /** The envelope recipient (RCPT TO) when known: more reliable than To/Cc for a plus tag. */
  recipient?: string;
}

export type InboundMailResult = { message: InboundChannelMessage } | { ignored: string };

/**
 * One raw e-mail in Parley's terms, or why it is no conversation: automatic replies, bulk and list mail,
 * bounces and Parley's own mail are ignored so that two auto-responders never talk to each other forever.
 */
export async function parseInboundMail(raw: Buffer, options: InboundMailOptions): Promise<InboundMailResult> {
  const mail = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true });
  const loop = loopReason(mail, options.ownConnectionId);
  if (loop !== null) return { ignored: loop };
  if (!mail.from?.value[0]?.address) return { ignored: 'no sender address' };

  const ownId = normalizeId(mail.messageId) ?? `sha256-${createHash('sha256').update(raw).digest('hex')}`;
  const references = idsOf(mail.references);
  const inReplyTo = idsOf(mail.inReplyTo);
  const thread = [...new Set([...references, ...inReplyTo])].filter((id) => id !== ownId);
  const { attachments, dropped } = attachmentsOf(mail, options.maxAttachmentBytes);
  const context: Record<string, string> = { subject: mail.subject?.trim() ?? '' };
  if (dropped.length > 0) context.droppedAttachments = dropped.join(', ');

  const message: InboundChannelMessage = {
    // The thread root: every reply names it first in References, so all of a thread lands in one conversation.
    channelExternalId: references[0] ?? inReplyTo[0] ?? ownId,
    channelMessageId: ownId,
    text: visibleReplyText(mail.text ?? (await htmlAsText(mail.html))),
    from: identityOf(mail),
    attachments,
    ...(dropped.length > 0 ? { droppedAttachments: dropped } : {}),
    context,
    inReplyTo: thread,
  };
  const hint = recipientsOf(mail, options.recipient)
    .map(conversationTagOf)
    .find((tag) => tag !== null);
  if (hint) message.conversationHint = hint;
  // The newest of our own mails it answers: In-Reply-To first, then References from the newest.
  const replied = [...inReplyTo, ...[...references].reverse()].map(parleyMessageOf).find((id) => id !== null);
  if (replied) message.repliedMessageHint = replied;
  return { message };
}

/**
 * The text of an HTML-only mail whose HTML is not the top part (Outlook's multipart/related with an inline
 * logo): mailparser converts HTML to text only for the top part or beside a text part, so the HTML is handed
 * to it again as a mail of its own, and its converter (html-to-text) does the rest.
 */
async function htmlAsText(html: string | false | undefined): Promise<string> {
  if (!html) return '';
  // Images are no text: html-to-text would write their alt text and `[cid:…]`.
  const withoutImages = html.replace(/<img\b[^>]*>/gi, '');
  const alone = await simpleParser(Buffer.from(`Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n${withoutImages}`));
  return alone.text ?? '';
}

const BULK_PRECEDENCE = new Set(['bulk', 'junk', 'list', 'auto_reply']);

/** Why `mail` must not be answered, or null when a person wrote it to us. */
function loopReason(mail: ParsedMail, ownConnectionId: string): string | null {
  const header = (name: string): string | null => headerText(mail.headers.get(name));
  const sentThrough = header(OWN_CONNECTION_HEADER.toLowerCase());
  if (sentThrough !== null) return `sent by Parley (${OWN_CONNECTION_HEADER}${sentThrough.trim() === ownConnectionId ? ', this connection' : ''})`;
  const ownId = normalizeId(mail.messageId);
  if (ownId !== null && isParleyMessageId(ownId)) return 'sent by Parley (Message-ID)';
  const autoSubmitted = header('auto-submitted')?.trim().toLowerCase();
  if (autoSubmitted && !/^no\b/.test(autoSubmitted)) return `automatic (Auto-Submitted: ${autoSubmitted})`;
  const precedence = header('precedence')?.toLowerCase();
  if (precedence && BULK_PRECEDENCE.has(precedence)) return `bulk (Precedence: ${precedence})`;
  if (header('x-autoreply') !== null || header('x-autorespond') !== null) return 'automatic (X-Autoreply)';
  // Newsletters and mailing lists are no conversation with us: answering them would mail the whole list.
  // (mailparser folds List-* headers into one `list` object: the raw header lines say which were there.)
  if (mail.headerLines.some((line) => line.key === 'list-id' || line.key === 'list-unsubscribe')) return 'list mail (List-Id)';
  if (isBounce(mail, header('return-path'))) return 'bounce';
  return null;
}

function isBounce(mail: ParsedMail, returnPath: string | null): boolean {
  if (returnPath !== null && /^<?\s*>?$/.test(returnPath.trim())) return true;
  const sender = mail.from?.value[0]?.address?.toLowerCase() ?? '';
  if (/^(mailer-daemon|postmaster)@/.test(sender)) return true;
  const contentType = mail.headers.get('content-type');
  const type =
    typeof contentType === 'object' && contentType !== null && 'value' in contentType ? String(contentType.value) : headerText(contentType);
  return type?.toLowerCase().startsWith('multipart/report') ?? false;
}

/** A header's value as text: mailparser parses some (addresses, content types) into objects. */
function headerText(value: HeaderValue | undefined): string | null {
  if (value === undefined) return null;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.join(', ');
  if (value instanceof Date) return value.toISOString();
  if ('text' in value && typeof value.text === 'string') return value.text;
  if ('value' in value) return String(value.value);
  return '';
}

/** A Message-ID without its angle brackets; null when there is none. */
export function normalizeId(id: string | undefined): string | null {
  const trimmed = id?.trim().replace(/^<|>$/g, '').trim();
  return trimmed ? trimmed : null;
}

/** The ids of a References or In-Reply-To header, oldest first (mailparser gives one id as a string). */
function idsOf(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const parts = (Array.isArray(value) ? value : [value]).flatMap((part) => part.match(/<[^<>]+>/g) ?? part.split(/\s+/));
  return [...new Set(parts.map((part) => normalizeId(part)).filter((id): id is string => id !== null))];
}

function identityOf(mail: ParsedMail): ChannelIdentity {
  const sender = mail.from?.value[0];
  const email = sender?.address?.toLowerCase() ?? '';
  const identity: ChannelIdentity = { externalId: email, email };
  const name = sender?.name?.trim();
  if (name && name.toLowerCase() !== email) {
    identity.displayName = name;
    // "Last, First" is how directories often write it; otherwise the first word is the first name.
    const [last, first] = name.includes(',') ? name.split(',', 2).map((part) => part.trim()) : [];
    const words = name.split(/\s+/);
    const firstName = first ?? words[0];
    const lastName = last ?? (words.length > 1 ? words.slice(1).join(' ') : undefined);
    if (firstName) identity.firstName = firstName;
    if (lastName) identity.lastName = lastName;
  }
  return identity;
}

/** Where the mail was addressed: the envelope recipient first, then To, Cc and Delivered-To. */
function recipientsOf(mail: ParsedMail, recipient: string | undefined): string[] {
  const listed = (value: AddressObject | AddressObject[] | undefined): string[] =>
    (Array.isArray(value) ? value : value ? [value] : []).flatMap((object) => object.value.map((address) => address.address ?? ''));
  const delivered = headerText(mail.headers.get('delivered-to'));
  return [recipient ?? '', ...listed(mail.to), ...listed(mail.cc), ...(delivered ? delivered.split(/,\s*/) : [])].filter((address) => address !== '');
}

function attachmentsOf(mail: ParsedMail, maxBytes: number): { attachments: InboundAttachment[]; dropped: string[] } {
  const html = typeof mail.html === 'string' ? mail.html : '';
  const attachments: InboundAttachment[] = [];
  const dropped: string[] = [];
  for (const attachment of mail.attachments) {
    // An image the HTML shows inline (a logo in a signature) is part of the layout, not something sent to us.
    if (attachment.cid && (attachment.related || html.includes(`cid:${attachment.cid}`))) continue;
    const name = attachment.filename ?? `attachment-${attachments.length + dropped.length + 1}`;
    if (attachment.content.length > maxBytes) {
      dropped.push(name);
      continue;
    }
    attachments.push({ name, mimeType: attachment.contentType, content: new Uint8Array(attachment.content) });
  }
  return { attachments, dropped };
}
