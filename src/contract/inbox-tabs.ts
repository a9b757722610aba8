import { Type, type Static } from '@sinclair/typebox';
import type { ConversationStatus } from './conversations.js';
import { KeyedObject } from './json-schema.js';

/**
 * The inbox's tabs, defined once for the server (which counts them) and the dashboard (which lists them): each
 * tab is a selection of conversations in the terms of the conversation list's filters, taken under whatever
 * other filters the inbox has set.
 */

export const INBOX_TABS = ['humanRequested', 'unresolved', 'mine', 'unassigned', 'all'] as const;

export type InboxTab = (typeof INBOX_TABS)[number];

/** Which conversations a tab holds; every field given must match, none given: all of them. */
export interface InboxTabSelection {
  status?: Exclude<ConversationStatus, 'RESOLVED'>;
  /** Not resolved. */
  open?: true;
  /** Assigned to the member looking at the inbox. */
  assignedToViewer?: true;
  /** Assigned to nobody. */
  unassigned?: true;
}

export const INBOX_TAB_SELECTIONS: Readonly<Record<InboxTab, InboxTabSelection>> = {
  humanRequested: { status: 'HUMAN_REQUESTED' },
  unresolved: { status: 'UNRESOLVED' },
  mine: { open: true, assignedToViewer: true },
  unassigned: { open: true, unassigned: true },
  all: {},
};

/** Per tab: how many conversations, and how many of them have visitor messages no member has read. */
export const TabCount = Type.Object({
  total: Type.Integer({ minimum: 0, description: 'Conversations in the tab' }),
  unread: Type.Integer({ minimum: 0, description: 'Of them, those with visitor messages no member has read' }),
});

/** `GET /user-conversations/counts`: every tab's count. */
export const InboxCounts = KeyedObject(INBOX_TABS, TabCount, {
  description: 'humanRequested and unresolved: by status; mine (assigned to the caller) and unassigned: those not resolved; all: everything',
});

export type TabCount = Static<typeof TabCount>;
export type InboxCounts = Static<typeof InboxCounts>;
