import type { MessageFrom, MessageRecord } from '../store/store.js';
import { contactName, senderOf, type ConversationView } from './conversation-view.js';
import { escapeHtml } from '../text/escape-html.js';
import { sourceLabels, type SourceLabel } from './answer-sources.js';

export interface TranscriptMessage {
  id: string;
  from: MessageFrom;
  text: string;
  /** ISO 8601 UTC. */
  timestamp: string;
  /** For people, in UTC: "25 Nov 2026, 14:03 UTC". */
  formattedTimestamp: string;
  senderName: string;
  attachments: Record<string, unknown>[];
  /** An agent answer's sources: the n-th is what its `[n]` cites. */
  sources: SourceLabel[];
}

/** The export JSON shape of the spec. */
export interface ConversationTranscript {
  id: string;
  title: string;
  contactName: string | null;
  phoneNumber: string | null;
  channel: string;
  agentName: string | null;
  createdAt: string;
  messages: TranscriptMessage[];
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "25 Nov 2026, 14:03 UTC": the same text whatever the server's locale and time zone. */
export function formatUtcTimestamp(iso: string): string {
  const date = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, '0');
  return (
    `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}, ` + `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`
  );
}

const FALLBACK_NAMES = { agent: 'Agent', visitor: 'Visitor', user: 'Team member' } as const;

export function toTranscript(view: ConversationView): ConversationTranscript {
  const { conversation, agent, contact, messages } = view;
  const senderName = (message: MessageRecord): string => {
    const sender = senderOf(message, view);
    return sender === null ? 'System' : (sender.name ?? FALLBACK_NAMES[sender.type]);
  };
  return {
    id: conversation.id,
    title: view.title,
    contactName: contactName(contact),
    phoneNumber: contact?.phoneNumber ?? null,
    channel: conversation.channel,
    agentName: agent?.name ?? null,
    createdAt: conversation.createdAt,
    messages: messages.map((message) => ({
      id: message.id,
      from: message.from,
      text: message.text,
      timestamp: message.createdAt,
      formattedTimestamp: formatUtcTimestamp(message.createdAt),
      senderName: senderName(message),
      attachments: message.attachments,
      sources: sourceLabels(message.sources),
    })),
  };
}

const STYLE = `
  :root { color-scheme: light; }
  body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; max-width: 48rem; margin: 2rem auto; padding: 0 1rem; }
  h1 { font-size: 1.4rem; margin: 0 0 .5rem; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: 0 0 1.5rem; color: #57606a; font-size: .9rem; }
  dt { font-weight: 600; }
  dd { margin: 0; }
  .message { border-left: 3px solid #d0d7de; padding: .4rem .9rem; margin: .9rem 0; }
  .from-agent { border-color: #0969da; }
  .from-system { border-color: #bf8700; font-style: italic; }
  .meta { color: #57606a; font-size: .85rem; }
  .text { white-space: pre-wrap; overflow-wrap: anywhere; margin-top: .2rem; }
  .attachments, .sources { margin: .3rem 0 0; padding-left: 1.2rem; font-size: .85rem; }
  .sources-title { margin: .3rem 0 0; font-size: .85rem; color: #57606a; }
  @media print {
    body { max-width: none; margin: 0; font-size: 11pt; }
    .message { break-inside: avoid; }
  }
`;

/** What a person sees for an attachment: its name or address, as text (never a live link). */
const attachmentLabel = (attachment: Record<string, unknown>): string => {
  const label = [attachment.name, attachment.fileName, attachment.url].find((value) => typeof value === 'string');
  return typeof label === 'string' ? label : 'attachment';
};

/** A source as text (never a live link), with its page. */
const sourceLabel = (source: SourceLabel): string =>
  [source.name || source.url || 'source', source.pageNumber === null ? '' : `, page ${source.pageNumber}`].join('');

const renderMessage = (message: TranscriptMessage): string => {
  const attachments =
    message.attachments.length === 0
      ? ''
      : `<ul class="attachments">${message.attachments.map((item) => `<li>${escapeHtml(attachmentLabel(item))}</li>`).join('')}</ul>`;
  // Numbered as the answer's [n] cite them.
  const sources =
    message.sources.length === 0
      ? ''
      : `<p class="sources-title">Sources</p><ol class="sources">${message.sources.map((source) => `<li>${escapeHtml(sourceLabel(source))}</li>`).join('')}</ol>`;
  return `<article class="message from-${escapeHtml(message.from)}">
<div class="meta"><strong>${escapeHtml(message.senderName)}</strong> · <time datetime="${escapeHtml(message.timestamp)}">${escapeHtml(message.formattedTimestamp)}</time></div>
<div class="text">${escapeHtml(message.text)}</div>${sources}${attachments}
</article>`;
};

/** A standalone, printable transcript page; every text in it is escaped. */
export function renderTranscriptHtml(transcript: ConversationTranscript): string {
  const title = transcript.title || `Conversation ${transcript.id}`;
  const facts: [string, string | null][] = [
    ['Channel', transcript.channel],
    ['Agent', transcript.agentName],
    ['Contact', transcript.contactName],
    ['Phone', transcript.phoneNumber],
    ['Started', formatUtcTimestamp(transcript.createdAt)],
  ];
  const details = facts
    .filter((fact): fact is [string, string] => fact[1] !== null)
    .map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(title)}</h1>
<dl>${details}</dl>
</header>
<main>
${transcript.messages.map(renderMessage).join('\n')}
</main>
</body>
</html>
`;
}
