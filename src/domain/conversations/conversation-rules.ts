import { INBOX_TAB_SELECTIONS, INBOX_TABS, type InboxTab } from '../../contract/inbox-tabs.js';
import type { ConversationFilter, MessageFrom, MessageMatch, StatusTransition } from '../../store/store.js';

/**
 * The rules of a conversation that the store applies inside its transactions: the domain names them here
 * and hands the store their decision (a value), so no SQL knows why.
 */

/** Who wrote a message, as far as the rules care (`private`: a member's note, for the team only). */
export type Writer = { from: MessageFrom; memberId: string | null; private?: boolean };

/** What the visitor may see of a conversation: everything but the members' private notes. */
export const isForVisitor = (message: { private?: boolean }): boolean => message.private !== true;

/** A visitor writing: a human message no member wrote (a member's reply is `human` too). */
export const isVisitor = (writer: Writer): boolean => writer.from === 'human' && writer.memberId === null;

/** A person writing (a visitor or a member) reopens a resolved conversation; the agent and notices do not. */
export const REOPEN_ON_HUMAN: StatusTransition = { from: 'RESOLVED', to: 'UNRESOLVED' };

/** The status change a new message makes, if any (see {@link REOPEN_ON_HUMAN}); a private note makes none. */
export const transitionOnMessage = (writer: Writer): StatusTransition | undefined =>
  writer.from === 'human' && writer.private !== true ? REOPEN_ON_HUMAN : undefined;

/** Longest title, in characters, the ellipsis included. */
export const TITLE_LENGTH = 80;

/** A conversation's title made of `text`: its first line, trimmed, cut to {@link TITLE_LENGTH} with an ellipsis. */
export function titleOf(text: string): string {
  const line = (text.trim().split('\n')[0] ?? '').replace(/\s+/g, ' ').trim();
  const chars = [...line];
  return chars.length > TITLE_LENGTH
    ? `${chars
        .slice(0, TITLE_LENGTH - 1)
        .join('')
        .trimEnd()}…`
    : line;
}

/**
 * The title a message gives its conversation while it has none: the visitor's first question, so the first
 * visitor message names it; a member's reply or note, the agent and notices never do.
 */
export function firstTitle(writer: Writer, text: string): string | undefined {
  if (!isVisitor(writer)) return undefined;
  const title = titleOf(text);
  return title === '' ? undefined : title;
}

/** What a conversation is called: its title, else (one untitled before titles were kept) its first visitor message's. */
export const conversationTitle = (title: string, firstVisitorText: string | undefined): string =>
  title === '' ? titleOf(firstVisitorText ?? '') : titleOf(title);

/** A visitor's message (what names a conversation). */
export const VISITOR_MESSAGE: MessageMatch = { from: 'human', byMember: false, private: false };

/** What the inbox counts as unread: a visitor's message no member has read. */
export const UNREAD: MessageMatch = { read: false, from: 'human', byMember: false, private: false };

/** Whether a new message starts read: what visitors write waits for a member; the rest needs no attention. */
export const startsRead = (writer: Writer): boolean => !isVisitor(writer);

/**
 * The store filter of each inbox tab (src/contract/inbox-tabs.ts) as `memberId` sees it; without a member,
 * Mine holds nothing and is left out.
 */
export function inboxTabFilters(memberId: string | null): Partial<Record<InboxTab, ConversationFilter>> {
  const filters: Partial<Record<InboxTab, ConversationFilter>> = {};
  for (const tab of INBOX_TABS) {
    const { status, open, assignedToViewer, unassigned } = INBOX_TAB_SELECTIONS[tab];
    if (assignedToViewer === true && memberId === null) continue;
    filters[tab] = {
      ...(status === undefined ? {} : { status }),
      ...(open === undefined ? {} : { open }),
      ...(assignedToViewer === undefined || memberId === null ? {} : { assigneeId: memberId }),
      ...(unassigned === undefined ? {} : { unassigned }),
    };
  }
  return filters;
}
