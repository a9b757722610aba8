import EmailReplyParser from 'email-reply-parser';

/**
 * Where the quoted history of a reply begins, for the header blocks mail programs write above it. The
 * reply parser knows most of them; these are the shapes it misses once an HTML reply became text
 * (Outlook's "From: … Sent: …" block with the name in bold or no address, its underscore rule).
 */
const HISTORY_STARTS: readonly RegExp[] = [
  // Gmail, Apple Mail, Thunderbird: "On Tue, 3 Nov 2026 at 10:00, Jane <jane@example.com> wrote:", often wrapped.
  /^[ \t]*On\b[^\n]{0,300}(?:\n[^\n]{0,300})?\bwrote:[ \t]*$/m,
  /^[ \t]*-{2,}[ \t]*Original Message[ \t]*-{2,}[ \t]*$/im,
  // Outlook's rule above its header block: underscores in text mail, a line of dashes once its <hr> became text.
  /^[ \t]*[-_]{10,}[ \t]*\n+[ \t]*\*?From:/m,
  /^[ \t]*\*?From:\*?[ \t]+[^\n]+\n[ \t]*\*?(?:Sent|Date):\*?[ \t]+/im,
];

/**
 * What the sender wrote in this mail: quoted history and signature removed, whitespace collapsed
 * (runs of spaces, trailing spaces, more than one blank line), so that the conversation shows one
 * message and the agent is not asked about its own earlier answer.
 */
export function visibleReplyText(text: string): string {
  let body = text.replace(/\r\n?/g, '\n').replace(/\u00a0/g, ' ');
  const cut = Math.min(...HISTORY_STARTS.map((pattern) => pattern.exec(body)?.index ?? body.length));
  body = body.slice(0, cut);
  const visible = new EmailReplyParser().read(body).getVisibleText();
  return visible
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
