import { useEffect, useRef } from 'react';
import { Link } from 'wouter';
import { channelLabel } from '../../components/channel-label';
import { DateTime } from '../../components/date-time';
import { EmptyState } from '../../components/empty-state';
import { ErrorState, LoadingState } from '../../components/query-status';
import type { ListedConversation } from '../../queries/conversations';
import { ConversationStatusBadge } from './conversation-status-badge';
import { LabelChips } from './label-chips';
import { conversationHref, type InboxSearch } from './inbox-search';

interface ConversationListProps {
  conversations: readonly ListedConversation[] | undefined;
  error: unknown;
  retry: () => void;
  selectedId: string | undefined;
  search: InboxSearch;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
  /** Some filter is set (an empty list then says so). */
  filtered: boolean;
}

/** Who the conversation is with: the contact's name or e-mail, else the visitor. */
export const personOf = (conversation: Pick<ListedConversation, 'contactInfo'>): string =>
  conversation.contactInfo?.name ?? conversation.contactInfo?.email ?? conversation.contactInfo?.phoneNumber ?? 'Visitor';

/** The latest message's words, with who wrote them when it was not the visitor. */
function latestLine(conversation: ListedConversation): string {
  const latest = conversation.messages.at(-1);
  if (latest === undefined) return conversation.title || 'No messages yet';
  const by = latest.private
    ? `Private note, ${latest.sender?.name ?? 'a member'}: `
    : latest.sender?.type === 'agent'
      ? `${conversation.agent?.name ?? 'Agent'}: `
      : latest.sender?.type === 'user'
        ? `${latest.sender.name ?? 'Member'}: `
        : '';
  return `${by}${latest.text}`;
}

/**
 * The conversations of the tab, most recently active first; more load as the end scrolls into view
 * (or with the button at the end, for the keyboard).
 */
export function ConversationList({
  conversations,
  error,
  retry,
  selectedId,
  search,
  hasMore,
  loadingMore,
  loadMore,
  filtered,
}: ConversationListProps) {
  const end = useRef<HTMLDivElement>(null);
  const more = useRef(loadMore);
  useEffect(() => {
    more.current = loadMore;
  });
  useEffect(() => {
    const sentinel = end.current;
    if (sentinel === null || !hasMore) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) more.current();
    });
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [hasMore, conversations?.length]);

  if (error !== null) return <ErrorState error={error} retry={retry} />;
  if (conversations === undefined) return <LoadingState label="Loading conversations…" />;
  if (conversations.length === 0 && !hasMore) {
    return (
      <EmptyState title={filtered ? 'No conversations match' : 'Nothing here'}>
        {filtered ? 'Try another tab, or clear the filters.' : 'Conversations show up here as they happen, without reloading.'}
      </EmptyState>
    );
  }
  return (
    <>
      <ul className="conversation-list" aria-label="Conversations">
        {conversations.map((conversation) => (
          <li key={conversation.id}>
            <Link
              href={conversationHref(conversation.id, search)}
              className={conversation.unreadCount > 0 ? 'conversation-item conversation-unread' : 'conversation-item'}
              aria-current={conversation.id === selectedId ? 'page' : undefined}
            >
              <span className="conversation-row">
                <span className="conversation-person">{conversation.title || personOf(conversation)}</span>
                <span className="conversation-time muted small">
                  <DateTime iso={conversation.updatedAt} relative />
                </span>
              </span>
              <span className="conversation-excerpt">
                {conversation.title && <span className="conversation-who">{personOf(conversation)} · </span>}
                {latestLine(conversation)}
              </span>
              <LabelChips labels={conversation.labels} />
              <span className="conversation-meta">
                <ConversationStatusBadge status={conversation.status} />
                <span className="channel-tag">{channelLabel(conversation.channel)}</span>
                {!conversation.isAiEnabled && <span className="badge badge-neutral">Agent off</span>}
                {conversation.playground && <span className="badge badge-neutral">Playground</span>}
                <span className="muted small">
                  {[conversation.agent?.name, conversation.assignee && `→ ${conversation.assignee.name ?? 'a former member'}`]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
                {conversation.unreadCount > 0 && (
                  <span className="unread-badge">
                    {conversation.unreadCount}
                    <span className="visually-hidden"> unread</span>
                  </span>
                )}
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <div ref={end} className="list-end">
        {hasMore && (
          <button type="button" className="button button-small button-quiet" onClick={loadMore} disabled={loadingMore} aria-busy={loadingMore}>
            {loadingMore ? 'Loading…' : 'Load more'}
          </button>
        )}
      </div>
    </>
  );
}
