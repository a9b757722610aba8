import { INBOX_TABS, type InboxCounts } from '../../contract/inbox-tabs.js';
import { conversationUpdatedEvent } from '../../events/conversation-events.js';
import { notFound } from '../../errors.js';
import type { Store } from '../../store/store.js';
import { decodeCursor, encodeCursor } from '../conversation-cursor.js';
import { conversationFilter, LIST_LIMIT, type ConversationListPage, type ConversationListQuery } from '../conversation-list.js';
import { findInWorkspace } from '../scoped.js';
import { inboxTabFilters, UNREAD } from './conversation-rules.js';
import type { ConversationViews } from './conversation-views.js';

/** The members' inbox: the list of conversations, the tabs' counts, and what they have read. */
export class Inbox {
  constructor(
    private readonly store: Store,
    private readonly views: ConversationViews,
    private readonly onEvent: (workspaceId: string) => void,
  ) {}

  /** One page of the workspace's conversations, most recently active first. */
  async list(workspaceId: string, query: ConversationListQuery): Promise<ConversationListPage> {
    const limit = Math.min(Math.max(1, query.limit ?? LIST_LIMIT.default), LIST_LIMIT.max);
    if (query.agentId !== undefined) await findInWorkspace(this.store.agents, 'Agent', workspaceId, query.agentId);
    if (query.label !== undefined) await findInWorkspace(this.store.labels, 'Label', workspaceId, query.label);
    const filter = conversationFilter(query);
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    // One row more than asked tells whether another page follows.
    const rows = await this.store.conversations.list(workspaceId, filter, { limit: limit + 1, after });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const toView = await this.views.viewer(workspaceId, page, query.messages ?? 'latest');
    return {
      items: page.map(toView),
      nextCursor: rows.length > limit && last !== undefined ? encodeCursor(last) : null,
    };
  }

  /** How many conversations each inbox tab holds, and how many of them are unread, under the list filters; Mine is `memberId`'s. */
  async counts(workspaceId: string, query: ConversationListQuery, memberId: string | null): Promise<InboxCounts> {
    if (query.agentId !== undefined) await findInWorkspace(this.store.agents, 'Agent', workspaceId, query.agentId);
    if (query.label !== undefined) await findInWorkspace(this.store.labels, 'Label', workspaceId, query.label);
    const counted = await this.store.conversations.countGroups(workspaceId, conversationFilter(query), inboxTabFilters(memberId), UNREAD);
    return Object.fromEntries(INBOX_TABS.map((tab) => [tab, counted[tab] ?? { total: 0, unread: 0 }])) as InboxCounts;
  }

  /** Marks the visitor's messages read for the members; the number marked. */
  async markRead(workspaceId: string, id: string): Promise<number> {
    const marked = await this.store.conversations.markRead(workspaceId, id, UNREAD, (conversation) =>
      conversationUpdatedEvent(conversation, ['read']),
    );
    if (marked === undefined) {
      await this.views.find(workspaceId, id);
      throw notFound('Conversation', id);
    }
    if (marked > 0) this.onEvent(workspaceId);
    return marked;
  }
}
