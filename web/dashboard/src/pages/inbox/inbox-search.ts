import { useCallback, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { Channel } from '../../../../../src/contract/channels';
import { INBOX_TAB_SELECTIONS, INBOX_TABS, type InboxCounts, type InboxTab } from '../../../../../src/contract/inbox-tabs';
import {
  CHANNELS,
  CONVERSATION_STATUSES,
  type ConversationFilter,
  type ConversationSelection,
  type ConversationStatus,
} from '../../queries/conversations';

/**
 * The inbox's state, kept in the URL (docs/dashboard-api.md, "URLs"): `/dashboard/inbox?tab=…&agentId=…&channel=…&q=…&from=…&to=…`,
 * `status=…` (the All tab's status filter; older links carry it alone and land on its tab) and `playground=1`
 * (the playground's conversations shown too).
 */
export interface InboxSearch {
  tab: InboxTab;
  /** Only in the All tab: the other tabs say which conversations they hold. */
  status?: ConversationStatus;
  agentId?: string;
  /** A label id: only conversations carrying it. */
  label?: string;
  channel?: Channel;
  q?: string;
  /** YYYY-MM-DD, created from the start of that day (UTC). */
  from?: string;
  /** YYYY-MM-DD, created up to the end of that day (UTC). */
  to?: string;
  /** The playground's conversations (the team's tests) shown too. */
  playground?: true;
}

const TAB_LABELS: Record<InboxTab, string> = {
  humanRequested: 'Human requested',
  unresolved: 'Unresolved',
  mine: 'Mine',
  unassigned: 'Unassigned',
  all: 'All',
};

/** The tabs in their order (src/contract/inbox-tabs.ts), with their labels. */
export const TABS: ReadonlyArray<{ id: InboxTab; label: string }> = INBOX_TABS.map((id) => ({ id, label: TAB_LABELS[id] }));

export const STATUS_LABELS: Record<ConversationStatus, string> = {
  UNRESOLVED: 'Unresolved',
  HUMAN_REQUESTED: 'Human requested',
  RESOLVED: 'Resolved',
};

const DEFAULT_TAB: InboxTab = 'unresolved';
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined => values.find((known) => known === value);

const text = (value: string | null, max: number): string | undefined => {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed.slice(0, max);
};

/** The tab a status of an older link stands for. */
const TAB_OF_STATUS: Record<ConversationStatus, InboxTab> = { HUMAN_REQUESTED: 'humanRequested', UNRESOLVED: 'unresolved', RESOLVED: 'all' };

/** The inbox state of a query string; what it cannot use is left out. */
export function readInboxSearch(search: string): InboxSearch {
  const params = new URLSearchParams(search);
  const status = oneOf(CONVERSATION_STATUSES, params.get('status'));
  const tab = oneOf(INBOX_TABS, params.get('tab')) ?? (status === undefined ? DEFAULT_TAB : TAB_OF_STATUS[status]);
  const date = (name: string) => {
    const value = params.get(name);
    return value !== null && DATE.test(value) ? value : undefined;
  };
  return {
    tab,
    status: tab === 'all' ? status : undefined,
    agentId: text(params.get('agentId'), 200),
    label: text(params.get('label'), 200),
    channel: oneOf(CHANNELS, params.get('channel')),
    q: text(params.get('q'), 500),
    from: date('from'),
    to: date('to'),
    ...(params.get('playground') === '1' ? { playground: true } : {}),
  };
}

/** The query string of an inbox state (with its `?`, or empty), in a stable order. */
export function inboxSearchString(state: InboxSearch): string {
  const params = new URLSearchParams();
  if (state.tab !== DEFAULT_TAB) params.set('tab', state.tab);
  if (state.tab === 'all' && state.status !== undefined) params.set('status', state.status);
  for (const name of ['agentId', 'label', 'channel', 'q', 'from', 'to'] as const) {
    const value = state[name];
    if (value !== undefined) params.set(name, value);
  }
  if (state.playground === true) params.set('playground', '1');
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}

/** The inbox state of the address, and a change of it (the page, list or thread, stays). */
export function useInboxSearch(): [InboxSearch, (change: Partial<InboxSearch>, options?: { replace?: boolean }) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const state = useMemo(() => readInboxSearch(search), [search]);
  const change = useCallback(
    (next: Partial<InboxSearch>, options?: { replace?: boolean }) => navigate(location + inboxSearchString({ ...state, ...next }), options),
    [location, navigate, state],
  );
  return [state, change];
}

/** A conversation's address in the inbox, keeping the list's tab and filters beside it. */
export const conversationHref = (id: string, state: InboxSearch): string => `/conversations/${encodeURIComponent(id)}${inboxSearchString(state)}`;

export const inboxHref = (state: InboxSearch): string => `/inbox${inboxSearchString(state)}`;

/** The filters beside the tab: what the counts are taken under. */
export const filterOf = (state: InboxSearch): ConversationFilter => ({
  ...(state.agentId === undefined ? {} : { agentId: state.agentId }),
  ...(state.label === undefined ? {} : { label: state.label }),
  ...(state.channel === undefined ? {} : { channel: state.channel }),
  ...(state.q === undefined ? {} : { search: state.q }),
  ...(state.from === undefined ? {} : { startDate: state.from }),
  ...(state.to === undefined ? {} : { endDate: state.to }),
  ...(state.playground === true ? { includePlayground: true } : {}),
});

export const activeFilterCount = (state: InboxSearch): number =>
  (['status', 'agentId', 'label', 'channel', 'from', 'to', 'playground'] as const).filter((name) => state[name] !== undefined).length;

/** What a tab shows and how many there are: a bulk status change takes the same selection and changes exactly those. */
export interface TabSelection {
  /** The parameters of the list, and of `POST /conversations/update-status`. */
  list: ConversationSelection;
  /** How many conversations the tab holds, from the counts (taken under the same filters). */
  total(counts: InboxCounts): number;
}

/** The list parameters of a tab's selection (src/contract/inbox-tabs.ts); `memberId` is the viewer's (for Mine). */
function tabList(tab: InboxTab, memberId: string): Omit<ConversationSelection, keyof ConversationFilter> {
  const { status, open, assignedToViewer, unassigned } = INBOX_TAB_SELECTIONS[tab];
  return {
    ...(status === undefined ? {} : { status }),
    ...(assignedToViewer === undefined ? {} : { assigneeId: memberId }),
    ...(unassigned === undefined ? {} : { unassigned }),
    ...(open === undefined ? {} : { open }),
  };
}

/** The selection of a tab under the filters; `memberId` is the signed-in member's (for Mine). */
export function tabSelection(state: InboxSearch, memberId: string): TabSelection {
  const filter = filterOf(state);
  const { tab, status } = state;
  if (tab !== 'all' || status === undefined) return { list: { ...filter, ...tabList(tab, memberId) }, total: (counts) => counts[tab].total };
  // The All tab narrowed to a status: the counts have a tab for two statuses; the rest are resolved.
  const total = (counts: InboxCounts) =>
    status === 'HUMAN_REQUESTED'
      ? counts.humanRequested.total
      : status === 'UNRESOLVED'
        ? counts.unresolved.total
        : counts.all.total - counts.humanRequested.total - counts.unresolved.total;
  return { list: { ...filter, status }, total };
}
