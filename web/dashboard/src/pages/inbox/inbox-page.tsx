import * as Tabs from '@radix-ui/react-tabs';
import { useMemo, useState } from 'react';
import { useLocation, useParams } from 'wouter';
import { EmptyState } from '../../components/empty-state';
import { usePageTitle } from '../../components/page-title';
import { useLiveState } from '../../live/live-events';
import { useMyMemberId } from '../../session/session';
import { INBOX_TAB_SELECTIONS } from '../../../../../src/contract/inbox-tabs';
import { useConversationList, useInboxCounts, type TabCount } from '../../queries/conversations';
import { AlertMenu } from './alert-menu';
import { BulkLabelDialog } from './bulk-label-dialog';
import { BulkStatusDialog } from './bulk-status-dialog';
import { ConversationList } from './conversation-list';
import { ConversationThread } from './conversation-thread';
import { InboxFilters } from './inbox-filters';
import { ShortcutsDialog, useKeybinds } from './inbox-keybinds';
import { activeFilterCount, conversationHref, filterOf, STATUS_LABELS, TABS, tabSelection, useInboxSearch } from './inbox-search';

const LIVE_LABELS = { live: 'Live', connecting: 'Connecting…', reconnecting: 'Reconnecting…' } as const;

function TabLabel({ label, count }: { label: string; count: TabCount | undefined }) {
  return (
    <>
      {label}
      {count !== undefined && (
        <span className="tab-count">
          {count.total}
          <span className="visually-hidden"> conversations</span>
        </span>
      )}
      {count !== undefined && count.unread > 0 && (
        <span className="unread-badge">
          {count.unread}
          <span className="visually-hidden"> unread</span>
        </span>
      )}
    </>
  );
}

/**
 * The inbox (`/dashboard/inbox?tab=…`) and a conversation in it (`/dashboard/conversations/{id}`): the
 * list beside the thread on a wide screen, one after the other on a narrow one. Both follow the
 * workspace's events: new conversations and messages appear without reloading.
 */
export function InboxPage() {
  const { id: openId } = useParams<{ id?: string }>();
  const [, navigate] = useLocation();
  const [search, change] = useInboxSearch();
  const myId = useMyMemberId();
  const live = useLiveState();
  const [helpOpen, setHelpOpen] = useState(false);
  const [bulkDone, setBulkDone] = useState('');

  const filter = useMemo(() => filterOf(search), [search]);
  const selection = useMemo(() => tabSelection(search, myId), [search, myId]);
  const counts = useInboxCounts(filter);
  const list = useConversationList(selection.list);
  const conversations = list.data;
  const tab = TABS.find(({ id }) => id === search.tab)!;
  const filtered = activeFilterCount(search) > 0 || search.q !== undefined;
  usePageTitle(openId === undefined ? 'Inbox' : null);

  const step = (by: 1 | -1) => {
    if (conversations === undefined || conversations.length === 0) return;
    const at = conversations.findIndex((conversation) => conversation.id === openId);
    const next = conversations[at === -1 ? (by === 1 ? 0 : conversations.length - 1) : Math.min(conversations.length - 1, Math.max(0, at + by))];
    if (next !== undefined && next.id !== openId) navigate(conversationHref(next.id, search));
    if (by === 1 && at >= conversations.length - 2 && list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
  };
  useKeybinds({ j: () => step(1), k: () => step(-1), '?': () => setHelpOpen(true) });
  const chooseTab = (next: string) => {
    const chosen = TABS.find(({ id }) => id === next);
    if (chosen !== undefined) change({ tab: chosen.id });
  };

  return (
    <div className={openId === undefined ? 'inbox' : 'inbox inbox-thread-open'}>
      <section className="inbox-list-pane" aria-labelledby="inbox-title">
        <header className="inbox-head">
          <div className="inbox-title-row">
            <h1 id="inbox-title">Inbox</h1>
            <span className={`live-state live-${live}`} role="status">
              {LIVE_LABELS[live]}
            </span>
            <button
              type="button"
              className="icon-button inbox-help"
              onClick={() => setHelpOpen(true)}
              aria-label="Keyboard shortcuts"
              aria-keyshortcuts="?"
            >
              <span aria-hidden="true">?</span>
            </button>
          </div>
          <div className="toolbar inbox-toolbar">
            <BulkStatusDialog
              key={search.tab + (search.status ?? '')}
              tabLabel={search.status === undefined ? tab.label : `${tab.label}, ${STATUS_LABELS[search.status].toLowerCase()}`}
              selection={selection}
              count={counts.data === undefined ? undefined : selection.total(counts.data)}
              recount={() => void counts.refetch()}
              // The status every conversation of the tab has, when the tab is defined by one.
              current={INBOX_TAB_SELECTIONS[search.tab].status ?? search.status}
              filtered={filtered}
              onDone={(count, status) => setBulkDone(`${count} conversation${count === 1 ? '' : 's'} set to ${STATUS_LABELS[status].toLowerCase()}.`)}
            />
            <BulkLabelDialog conversationIds={(conversations ?? []).map((conversation) => conversation.id)} onDone={setBulkDone} />
            <AlertMenu />
          </div>
          <p className={bulkDone === '' ? 'visually-hidden' : 'inbox-notice'} role="status">
            {bulkDone}
          </p>
        </header>
        <Tabs.Root value={search.tab} onValueChange={chooseTab} activationMode="manual" className="inbox-tabs-root">
          <Tabs.List className="inbox-tabs" aria-label="Conversations by status">
            {TABS.map(({ id, label }) => (
              <Tabs.Trigger key={id} value={id} className="inbox-tab">
                <TabLabel label={label} count={counts.data?.[id]} />
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <InboxFilters search={search} change={change} />
          <Tabs.Content value={search.tab} className="inbox-list-scroll" tabIndex={-1}>
            <ConversationList
              conversations={conversations}
              error={list.error}
              retry={() => void list.refetch()}
              selectedId={openId}
              search={search}
              hasMore={list.hasNextPage}
              loadingMore={list.isFetchingNextPage}
              loadMore={() => void list.fetchNextPage()}
              filtered={filtered}
            />
          </Tabs.Content>
        </Tabs.Root>
      </section>
      <section className="inbox-thread-pane" aria-label="Conversation">
        {openId === undefined ? (
          <EmptyState title="No conversation open">
            Pick one in the list, or press <kbd className="kbd">j</kbd> to open the first. <kbd className="kbd">?</kbd> lists the shortcuts.
          </EmptyState>
        ) : (
          <ConversationThread key={openId} id={openId} search={search} />
        )}
      </section>
      <ShortcutsDialog open={helpOpen} onOpenChange={setHelpOpen} />
    </div>
  );
}
