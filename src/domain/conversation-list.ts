import type { ConversationFilter } from '../store/store.js';
import { normalizeChannel, type ChannelInput } from './channels.js';
import type { ConversationView, ListedMessages } from './conversation-view.js';
import { invalid } from '../errors.js';

export const LIST_LIMIT = { default: 20, max: 100 } as const;

/** A list request as the API takes it: the store's filter, with the channel as clients write it and dates as given. */
export interface ConversationListQuery extends Pick<
  ConversationFilter,
  'agentId' | 'channelExternalId' | 'status' | 'open' | 'assigneeId' | 'unassigned' | 'search'
> {
  channel?: ChannelInput;
  /** A label id: only conversations carrying it. */
  label?: string;
  /** ISO 8601 date or date-time; a bare date means the whole day (UTC). */
  startDate?: string;
  endDate?: string;
  /** true: the dashboard playground's conversations (the team's own tests) too; left out otherwise. */
  includePlayground?: boolean;
  messages?: ListedMessages;
  limit?: number;
  /** From a previous page's `nextCursor`. */
  cursor?: string;
}

export interface ConversationListPage {
  items: ConversationView[];
  /** Where the next page starts; null on the last page. */
  nextCursor: string | null;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A date bound as ISO 8601 UTC; a bare date stands for its first (start) or last (end) millisecond. */
function dateBound(value: string, field: 'startDate' | 'endDate'): string {
  const time = Date.parse(DATE_ONLY.test(value) ? `${value}T00:00:00.000Z` : value);
  if (Number.isNaN(time)) {
    throw invalid(`${field} is not a date`, [{ field, message: 'must be an ISO 8601 date or date-time' }]);
  }
  const endOfDay = field === 'endDate' && DATE_ONLY.test(value) ? 86_400_000 - 1 : 0;
  return new Date(time + endOfDay).toISOString();
}

/** The store filter a list query asks for; dates as ISO 8601 UTC bounds. */
export function conversationFilter(query: ConversationListQuery): ConversationFilter {
  return {
    agentId: query.agentId,
    channel: query.channel === undefined ? undefined : normalizeChannel(query.channel),
    channelExternalId: query.channelExternalId,
    status: query.status,
    open: query.open,
    assigneeId: query.assigneeId,
    unassigned: query.unassigned,
    search: query.search?.trim() || undefined,
    createdFrom: query.startDate === undefined ? undefined : dateBound(query.startDate, 'startDate'),
    createdTo: query.endDate === undefined ? undefined : dateBound(query.endDate, 'endDate'),
    playground: query.includePlayground === true ? undefined : false,
    labelId: query.label,
  };
}
