/** What the picker reads of a saved reply. */
export interface PickableReply {
  shortcut: string;
  title: string;
  text: string;
}

/** A `/shortcut` being typed: where its slash is and what follows it up to the caret. */
export interface SlashToken {
  start: number;
  query: string;
}

/** The `/…` word the caret ends, if the slash starts a word (at the start or after a space or a line break). */
export function slashTokenAt(text: string, caret: number): SlashToken | undefined {
  const match = /(^|\s)\/([a-z0-9-]*)$/i.exec(text.slice(0, caret));
  if (match === null) return undefined;
  return { start: caret - match[2]!.length - 1, query: match[2]!.toLowerCase() };
}

/** The saved replies a query names: shortcuts that start with it first, then those containing it in the shortcut or title. */
export function matchingReplies<Reply extends PickableReply>(replies: readonly Reply[], query: string, limit = 8): Reply[] {
  const starts = replies.filter((reply) => reply.shortcut.startsWith(query));
  const contains = replies.filter(
    (reply) => !reply.shortcut.startsWith(query) && (reply.shortcut.includes(query) || reply.title.toLowerCase().includes(query)),
  );
  return [...starts, ...contains].slice(0, limit);
}

/** The text with the token replaced by the reply's text, and where the caret goes after it. */
export function insertReply(text: string, token: SlashToken, caret: number, reply: PickableReply): { text: string; caret: number } {
  const before = text.slice(0, token.start);
  const after = text.slice(caret);
  return { text: `${before}${reply.text}${after}`, caret: before.length + reply.text.length };
}
