import { escapeHtml } from '../text/escape-html.js';
import type { ConversationEventPayload, NotifyingEvent } from '../contract/events.js';

/** Who an e-mail is written for: the workspace's administrators or the person in the conversation. */
export type Recipient = 'admins' | 'customer';

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

export interface NotificationInput {
  type: NotifyingEvent;
  payload: ConversationEventPayload;
  recipient: Recipient;
  /** Where administrators open the conversation (the dashboard). */
  conversationUrl: string;
}

const SUBJECT_LENGTH = 80;

const clip = (text: string, length: number) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);

function speaker(payload: ConversationEventPayload, { from, senderName }: ConversationEventPayload['messages'][number]): string {
  if (senderName !== undefined) return senderName;
  if (from === 'agent') return payload.agent?.name ?? 'Agent';
  if (from === 'system') return 'System';
  const name = [payload.contact?.firstName, payload.contact?.lastName].filter(Boolean).join(' ');
  return name || payload.contact?.email || 'Visitor';
}

function wording({ type, payload, recipient }: NotificationInput): { subject: string; intro: string } {
  const topic = clip(payload.title || payload.messages.find((m) => m.from === 'human')?.text || 'a conversation', SUBJECT_LENGTH);
  const agent = payload.agent?.name ?? 'our assistant';
  if (recipient === 'admins') {
    return type === 'human-requested'
      ? { subject: `Human requested: ${topic}`, intro: `A conversation with ${agent} asks for a person to take over.` }
      : { subject: `Conversation resolved: ${topic}`, intro: `A conversation with ${agent} was marked as resolved.` };
  }
  return type === 'human-requested'
    ? { subject: `A person will answer you: ${topic}`, intro: 'Thank you for your patience: a member of our team will answer you here shortly.' }
    : { subject: `Your conversation is resolved: ${topic}`, intro: 'Your conversation was marked as resolved. Here is what was said.' };
}

/**
 * The notification e-mail of a conversation event, as plain text and HTML: why it was sent, the latest
 * messages, and for administrators the link to the conversation. Everything written by people or models
 * is escaped in the HTML part.
 */
export function renderNotificationEmail(input: NotificationInput): RenderedEmail {
  const { payload, recipient, conversationUrl } = input;
  const { subject, intro } = wording(input);
  const lines = payload.messages.map((message) => ({ who: speaker(payload, message), at: message.createdAt, text: message.text }));
  const link = recipient === 'admins' ? conversationUrl : null;

  const text = [
    intro,
    '',
    ...lines.flatMap((line) => [`${line.who} (${line.at}):`, line.text, '']),
    ...(link ? [`Open the conversation: ${link}`] : []),
  ].join('\n');

  const html = [
    `<p>${escapeHtml(intro)}</p>`,
    '<table role="presentation" cellpadding="6" style="border-collapse:collapse">',
    ...lines.map(
      (line) =>
        `<tr><td style="vertical-align:top;white-space:nowrap"><strong>${escapeHtml(line.who)}</strong><br>` +
        `<small>${escapeHtml(line.at)}</small></td><td style="white-space:pre-wrap">${escapeHtml(line.text)}</td></tr>`,
    ),
    '</table>',
    ...(link ? [`<p><a href="${escapeHtml(link)}">Open the conversation</a></p>`] : []),
  ].join('\n');

  return { subject, text, html };
}
