import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { api, apiWithHeaders } from '../api';
import type { LiveCache, LiveEvent } from '../live/live-event';
import { InvalidationBatch } from '../live/invalidation-batch';
import { useWorkspaceId } from '../session/session';
import type { AnswerSource } from './agents';

export const CONVERSATION_STATUSES = ['UNRESOLVED', 'HUMAN_REQUESTED', 'RESOLVED'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

/** The channels `GET /user-conversations` filters by. */
export const CHANNELS = ['website', 'api', 'dashboard', 'mail', 'messenger_a', 'messenger_b', 'team_chat', 'helpdesk', 'automation'] as const;

/** Who wrote a message: a member (user), the visitor or the agent; null for system notices. */
export interface Sender {
  type: 'user' | 'visitor' | 'agent';
  id: string | null;
  name?: string | null;
}

export interface ListedMessage {
  id: string;
  text: string;
  /** human: the visitor or a member (the sender tells which); agent: the AI; system: notices. */
  from: 'human' | 'agent' | 'system';
  sender: Sender | null;
  createdAt: string;
  read: boolean;
  attachments: Record<string, unknown>[];
}

export interface Assignee {
  id: string;
  /** Null once the member left. */
  name: string | null;
}

/** A record of `GET /user-conversations` (with its latest message). */
export interface ListedConversation {
  id: string;
  title: string;
  status: ConversationStatus;
  channel: string;
  channelExternalId: string | null;
  agent: { id: string; name: string; iconUrl: string | null; handle: string | null } | null;
  contactInfo: { name: string | null; email: string | null; phoneNumber: string | null } | null;
  isAiEnabled: boolean;
  /** A member's test in an agent's playground (listed only when the inbox includes them). */
  playground: boolean;
  assignee: Assignee | null;
  unreadCount: number;
  messages: ListedMessage[];
  createdAt: string;
  updatedAt: string;
}

export type MessageEval = 'GOOD' | 'BAD' | null;

export interface ThreadMessage extends ListedMessage {
  eval: MessageEval;
  sources: AnswerSource[];
}

/** `GET /conversations/{id}`: the conversation with all its messages (oldest first once {@link useConversation} has them). */
export interface ConversationDetail {
  id: string;
  title: string;
  status: ConversationStatus;
  channel: string;
  /** The channel's own id (a thread, a chat), when it has one. */
  channelExternalId: string | null;
  isAiEnabled: boolean;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  agent: { id: string; name: string; iconUrl: string | null } | null;
  assignee: Assignee | null;
  unreadCount: number;
  messages: ThreadMessage[];
  participantsVisitors: { id: string; contact: { id: string; firstName: string | null; lastName: string | null } | null }[];
  participantsContacts: { id: string; firstName: string | null; lastName: string | null; email: string | null; phoneNumber: string | null }[];
}

export interface TabCount {
  total: number;
  unread: number;
}

export type InboxTab = 'humanRequested' | 'unresolved' | 'mine' | 'unassigned' | 'all';

export type InboxCounts = Record<InboxTab, TabCount>;

/** What narrows conversations beside the tabs (the counts take these). */
export interface ConversationFilter {
  agentId?: string;
  channel?: string;
  search?: string;
  /** ISO 8601 dates: created from the start of `startDate` to the end of `endDate` (UTC). */
  startDate?: string;
  endDate?: string;
  /** The playground's conversations (the team trying its agents) too; left out otherwise. */
  includePlayground?: boolean;
}

/** A list's parameters: the filter plus what a tab selects. Bulk status changes take the same. */
export interface ConversationSelection extends ConversationFilter {
  status?: ConversationStatus;
  /** true: not resolved (unresolved or asking for a person). */
  open?: boolean;
  assigneeId?: string;
  unassigned?: boolean;
}

export interface ConversationPage {
  items: ListedConversation[];
  nextCursor: string | null;
}

export const conversationKeys = {
  all: (workspaceId: string) => ['workspaces', workspaceId, 'conversations'] as const,
  lists: (workspaceId: string) => [...conversationKeys.all(workspaceId), 'list'] as const,
  list: (workspaceId: string, selection: ConversationSelection) => [...conversationKeys.lists(workspaceId), selection] as const,
  allCounts: (workspaceId: string) => [...conversationKeys.all(workspaceId), 'counts'] as const,
  counts: (workspaceId: string, filter: ConversationFilter) => [...conversationKeys.allCounts(workspaceId), filter] as const,
  detail: (workspaceId: string, id: string) => [...conversationKeys.all(workspaceId), 'detail', id] as const,
};

/** The query string of a selection, without the parameters left out. */
export function selectionQuery(selection: ConversationSelection): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(selection)) {
    if (value !== undefined && value !== '' && value !== false) query.set(name, String(value));
  }
  return query.toString();
}

const conversationPath = (id: string) => `/conversations/${encodeURIComponent(id)}`;

const PAGE_SIZE = 30;

/**
 * The conversations of a selection, most recently active first, a page at a time (the next page's cursor
 * comes in X-Next-Cursor).
 */
export function useConversationList(selection: ConversationSelection) {
  const workspaceId = useWorkspaceId();
  return useInfiniteQuery({
    queryKey: conversationKeys.list(workspaceId, selection),
    queryFn: async ({ pageParam, signal }): Promise<ConversationPage> => {
      const query = selectionQuery(selection);
      const cursor = pageParam === null ? '' : `&cursor=${encodeURIComponent(pageParam)}`;
      const { body, headers } = await apiWithHeaders<ListedConversation[]>(
        `/user-conversations?limit=${PAGE_SIZE}${query === '' ? '' : `&${query}`}${cursor}`,
        { signal },
      );
      return { items: body, nextCursor: headers.get('x-next-cursor') || null };
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    select: (data) => data.pages.flatMap((page) => page.items),
  });
}

export function useInboxCounts(filter: ConversationFilter) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: conversationKeys.counts(workspaceId, filter),
    queryFn: ({ signal }) => {
      const query = selectionQuery(filter);
      return api<InboxCounts>(`/user-conversations/counts${query === '' ? '' : `?${query}`}`, { signal });
    },
  });
}

export function useConversation(id: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: conversationKeys.detail(workspaceId, id),
    // The API answers newest first (as the hosted service did); the thread reads in the order they were written.
    queryFn: async ({ signal }) => {
      const detail = await api<ConversationDetail>(conversationPath(id), { signal });
      return { ...detail, messages: detail.messages.reverse() };
    },
  });
}

/** A change to conversations: what the inbox shows of them is refetched (the events would say so too, later). */
function useConversationMutation<Input, Output>(send: (input: Input) => Promise<Output>) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: send, onSuccess: () => queryClient.invalidateQueries({ queryKey: conversationKeys.all(workspaceId) }) });
}

export interface ConversationPatch {
  /** false: a person takes over (the agent stops answering); true: handed back to the agent. */
  isAiEnabled?: boolean;
  status?: ConversationStatus;
  /** A member id; null unassigns. */
  assigneeId?: string | null;
}

export const useUpdateConversation = (id: string) =>
  useConversationMutation((patch: ConversationPatch) => api<{ id: string }>(conversationPath(id), { method: 'PATCH', body: patch }));

export type ConversationUpdate = ReturnType<typeof useUpdateConversation>;

/** A member's reply: takes the conversation over and assigns it to them when nobody has it. */
export const useReply = (id: string) =>
  useConversationMutation((text: string) => api<ThreadMessage>(`${conversationPath(id)}/messages`, { method: 'POST', body: { text } }));

/** Marks the visitor's messages read: at once in the thread, then in the lists and counts. */
export function useMarkRead(id: string) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ marked: number; unreadCount: number }>(`${conversationPath(id)}/read`, { method: 'POST' }),
    onSuccess: () => {
      queryClient.setQueryData<ConversationDetail>(conversationKeys.detail(workspaceId, id), (detail) => detail && { ...detail, unreadCount: 0 });
      return queryClient.invalidateQueries({ queryKey: conversationKeys.all(workspaceId) });
    },
  });
}

/** Sets the status of every conversation of the selection, in one request (irreversible); the number changed. */
export const useBulkStatus = () =>
  useConversationMutation(async ({ selection, status }: { selection: ConversationSelection; status: ConversationStatus }) => {
    const query = selectionQuery(selection);
    return (await api<{ count: number }>(`/conversations/update-status${query === '' ? '' : `?${query}`}`, { method: 'POST', body: { status } })).count;
  });

export function useRateMessage(conversationId: string) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ messageId, rating }: { messageId: string; rating: MessageEval }) =>
      api<ThreadMessage>(`/messages/${encodeURIComponent(messageId)}/eval`, { method: 'POST', body: { eval: rating } }),
    onSuccess: (rated) =>
      queryClient.setQueryData<ConversationDetail>(conversationKeys.detail(workspaceId, conversationId), (detail) =>
        detail && { ...detail, messages: detail.messages.map((message) => (message.id === rated.id ? { ...message, eval: rated.eval } : message)) },
      ),
  });
}

/** The transcript as a file: JSON, or a standalone HTML page. */
export async function exportConversation(id: string, format: 'json' | 'html'): Promise<Blob> {
  const body = await api<unknown>(`/user-conversations/export/${encodeURIComponent(id)}?format=${format}`);
  return format === 'json'
    ? new Blob([JSON.stringify(body, null, 2)], { type: 'application/json' })
    : new Blob([typeof body === 'string' ? body : ''], { type: 'text/html' });
}

type ConversationChange = Extract<LiveEvent, { type: 'conversation.updated' }>['data'];

/** A list record or the detail with an update's fields; the assignee's name waits for the refetch. */
function withChange<T extends ListedConversation | ConversationDetail>(record: T, { changed, conversation }: ConversationChange): T {
  const assignee =
    conversation.assigneeId === null ? null : record.assignee?.id === conversation.assigneeId ? record.assignee : { id: conversation.assigneeId, name: null };
  return {
    ...record,
    status: conversation.status,
    isAiEnabled: conversation.isAiEnabled,
    assignee,
    updatedAt: conversation.updatedAt,
    unreadCount: changed.includes('read') ? 0 : record.unreadCount,
  };
}

/**
 * Keeps the inbox in step with the event stream: what an event tells is written into the cache at once
 * (a new message in an open thread, a status in the list), and what it cannot tell (which lists a
 * conversation now belongs to, their order, the counts, an answer's sources) is refetched.
 */
export function conversationLiveCache(queryClient: QueryClient, workspaceId: string): LiveCache {
  const batch = new InvalidationBatch(queryClient);
  const refreshLists = () => {
    batch.add(conversationKeys.lists(workspaceId));
    batch.add(conversationKeys.allCounts(workspaceId));
  };
  const updateDetail = (id: string, update: (detail: ConversationDetail) => ConversationDetail) =>
    queryClient.setQueryData<ConversationDetail>(conversationKeys.detail(workspaceId, id), (detail) => detail && update(detail));
  return {
    apply(event) {
      switch (event.type) {
        case 'conversation.created':
          refreshLists();
          break;
        case 'message.created': {
          const { conversationId, message } = event.data;
          updateDetail(conversationId, (detail) =>
            detail.messages.some((known) => known.id === message.id)
              ? detail
              : { ...detail, messages: [...detail.messages, { ...message, read: false, eval: null, attachments: [], sources: [] }] },
          );
          batch.add(conversationKeys.detail(workspaceId, conversationId));
          refreshLists();
          break;
        }
        case 'conversation.updated': {
          const change = event.data;
          updateDetail(change.conversationId, (detail) => withChange(detail, change));
          queryClient.setQueriesData<InfiniteData<ConversationPage>>({ queryKey: conversationKeys.lists(workspaceId) }, (data) =>
            data && {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                items: page.items.map((item) => (item.id === change.conversationId ? withChange(item, change) : item)),
              })),
            },
          );
          if (change.changed.includes('assigneeId')) batch.add(conversationKeys.detail(workspaceId, change.conversationId));
          refreshLists();
          break;
        }
        default:
          break;
      }
    },
    refetch() {
      batch.add(conversationKeys.all(workspaceId));
    },
  };
}

/** Unread conversations still open (asking for a person or unresolved), in the whole workspace. */
export function useOpenUnread(): number {
  const counts = useInboxCounts({});
  return (counts.data?.humanRequested.unread ?? 0) + (counts.data?.unresolved.unread ?? 0);
}
