import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import type {
  ConversationBody,
  ConversationPatchBody,
  ConversationStatus,
  ListedConversationBody,
  MessageBody,
  MessageEval,
  PatchedConversationBody,
  ReadResultBody,
  UpdateStatusResultBody,
} from '../../../../src/contract/conversations';
import type { Channel } from '../../../../src/contract/channels';
import type { ConversationFilterQuery, ConversationSelectionQuery } from '../../../../src/contract/conversation-selection';
import type { ConversationUpdatedPayload } from '../../../../src/contract/events';
import type { InboxCounts } from '../../../../src/contract/inbox-tabs';
import { api, apiWithHeaders } from '../api';
import type { LiveCache } from '../live/live-event';
import { InvalidationBatch } from '../live/invalidation-batch';
import { useWorkspaceId } from '../session/session';

export type { ConversationStatus, MessageEval };
export type { InboxCounts, InboxTab, TabCount } from '../../../../src/contract/inbox-tabs';

/** The statuses in the order the inbox offers them. */
export const CONVERSATION_STATUSES = ['UNRESOLVED', 'HUMAN_REQUESTED', 'RESOLVED'] as const satisfies readonly ConversationStatus[];

/** The channels the inbox's filter offers, in its order. */
export const CHANNELS = [
  'website',
  'api',
  'dashboard',
  'mail',
  'messenger_a',
  'messenger_b',
  'team_chat',
  'helpdesk',
  'automation',
] as const satisfies readonly Channel[];

/** A record of `GET /user-conversations` (with its latest message). */
export type ListedConversation = ListedConversationBody;

/** A message of a conversation's thread, with its rating and sources. */
export type ThreadMessage = MessageBody;

/** `GET /conversations/{id}`: the conversation with all its messages (oldest first once {@link useConversation} has them). */
export type ConversationDetail = ConversationBody;

/** A change to a conversation (`PATCH /conversations/{id}`). */
export type ConversationPatch = ConversationPatchBody;

/** What narrows conversations beside the tabs (the counts take these). */
export type ConversationFilter = ConversationFilterQuery;

/** A list's parameters: the filter plus what a tab selects. Bulk status changes take the same. */
export type ConversationSelection = ConversationSelectionQuery;

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
 * comes in X-Next-Cursor). Also fetched before the inbox mounts (first-screen.ts).
 */
export const conversationListQuery = (workspaceId: string, selection: ConversationSelection) =>
  infiniteQueryOptions({
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
  });

export const useConversationList = (selection: ConversationSelection) =>
  useInfiniteQuery({
    ...conversationListQuery(useWorkspaceId(), selection),
    select: (data) => data.pages.flatMap((page) => page.items),
  });

/** How many conversations each inbox tab holds under the filters (also fetched before the inbox mounts). */
export const inboxCountsQuery = (workspaceId: string, filter: ConversationFilter) =>
  queryOptions({
    queryKey: conversationKeys.counts(workspaceId, filter),
    queryFn: ({ signal }) => {
      const query = selectionQuery(filter);
      return api<InboxCounts>(`/user-conversations/counts${query === '' ? '' : `?${query}`}`, { signal });
    },
  });

export const useInboxCounts = (filter: ConversationFilter) => useQuery(inboxCountsQuery(useWorkspaceId(), filter));

/** How long a message just written through a channel may go without a delivery state before it is not waited for. */
const PLANNING_MS = 30_000;

/**
 * Whether a message of a channel conversation is still on its way out: pending, or written moments ago and not
 * yet planned (the server marks it pending once its event is handled, which no live event announces).
 */
function awaitsDelivery(conversation: ConversationDetail, now: number): boolean {
  if (conversation.channelExternalId === null) return false;
  return conversation.messages.some(
    (message) =>
      message.delivery?.state === 'pending' ||
      (message.delivery?.state === undefined &&
        (message.from !== 'human' || message.sender?.type === 'user') &&
        now - Date.parse(message.createdAt) < PLANNING_MS),
  );
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
    // No event tells when a message sent through a channel went out: while one is on its way, look again.
    refetchInterval: (query) => (query.state.data !== undefined && awaitsDelivery(query.state.data, Date.now()) ? 3000 : false),
  });
}

/** A change to conversations: what the inbox shows of them is refetched (the events would say so too, later). */
function useConversationMutation<Input, Output>(send: (input: Input) => Promise<Output>) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: send, onSuccess: () => queryClient.invalidateQueries({ queryKey: conversationKeys.all(workspaceId) }) });
}

export const useUpdateConversation = (id: string) =>
  useConversationMutation((patch: ConversationPatch) => api<PatchedConversationBody>(conversationPath(id), { method: 'PATCH', body: patch }));

export type ConversationUpdate = ReturnType<typeof useUpdateConversation>;

/** A member's reply: takes the conversation over and assigns it to them when nobody has it. */
export const useReply = (id: string) =>
  useConversationMutation((text: string) => api<ThreadMessage>(`${conversationPath(id)}/messages`, { method: 'POST', body: { text } }));

/** A member's private note: only the team sees it; it changes nothing of the conversation. */
export const useNote = (id: string) =>
  useConversationMutation((text: string) => api<ThreadMessage>(`${conversationPath(id)}/notes`, { method: 'POST', body: { text } }));

/** Marks the visitor's messages read: at once in the thread, then in the lists and counts. */
export function useMarkRead(id: string) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<ReadResultBody>(`${conversationPath(id)}/read`, { method: 'POST' }),
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
    return (await api<UpdateStatusResultBody>(`/conversations/update-status${query === '' ? '' : `?${query}`}`, { method: 'POST', body: { status } }))
      .count;
  });

export function useRateMessage(conversationId: string) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ messageId, rating }: { messageId: string; rating: MessageEval }) =>
      api<ThreadMessage>(`/messages/${encodeURIComponent(messageId)}/eval`, { method: 'POST', body: { eval: rating } }),
    onSuccess: (rated) =>
      queryClient.setQueryData<ConversationDetail>(
        conversationKeys.detail(workspaceId, conversationId),
        (detail) =>
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

/** A list record or the detail with an update's fields; the assignee's name waits for the refetch. */
function withChange<T extends ListedConversation | ConversationDetail>(record: T, { changed, conversation }: ConversationUpdatedPayload): T {
  const assignee =
    conversation.assigneeId === null
      ? null
      : record.assignee?.id === conversation.assigneeId
        ? record.assignee
        : { id: conversation.assigneeId, name: null };
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
              : {
                  ...detail,
                  // The sender's name and the rest come with the refetch below.
                  messages: [
                    ...detail.messages,
                    {
                      ...message,
                      sender: message.sender && { ...message.sender, name: null },
                      read: false,
                      eval: null,
                      attachments: [],
                      sources: [],
                    },
                  ],
                },
          );
          batch.add(conversationKeys.detail(workspaceId, conversationId));
          refreshLists();
          break;
        }
        case 'conversation.updated': {
          const change = event.data;
          updateDetail(change.conversationId, (detail) => withChange(detail, change));
          queryClient.setQueriesData<InfiniteData<ConversationPage>>(
            { queryKey: conversationKeys.lists(workspaceId) },
            (data) =>
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
