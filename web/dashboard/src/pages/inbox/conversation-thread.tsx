import { useEffect, useRef } from 'react';
import { Link } from 'wouter';
import { ApiError } from '../../api';
import { channelLabel } from '../../components/channel-label';
import { ErrorState, LoadingState } from '../../components/query-status';
import { usePageTitle } from '../../components/page-title';
import { useConversation, useMarkRead, useUpdateConversation, type ConversationDetail } from '../../queries/conversations';
import { useMembers } from '../../queries/members';
import { useMyMemberId } from '../../session/session';
import { ConversationStatusBadge } from './conversation-status-badge';
import { useKeybinds } from './inbox-keybinds';
import { inboxHref, type InboxSearch } from './inbox-search';
import { ReplyForm } from './reply-form';
import { ThreadActions } from './thread-actions';
import { ThreadLabels } from './label-chips';
import { ThreadMessages } from './thread-messages';
import { VisitorPanel } from './visitor-panel';

interface ConversationThreadProps {
  id: string;
  search: InboxSearch;
}

/** One conversation (`/dashboard/conversations/{id}`, the link of the notification e-mails), live. */
export function ConversationThread({ id, search }: ConversationThreadProps) {
  const conversation = useConversation(id);
  if (conversation.isPending) return <LoadingState label="Loading the conversation…" />;
  if (conversation.isError) {
    const missing = conversation.error instanceof ApiError && conversation.error.status === 404;
    return (
      <div className="thread-missing">
        <BackToList search={search} />
        {missing ? (
          <div className="state state-error" role="alert">
            <p>
              <strong>No such conversation. </strong>It may belong to another workspace: switch workspace to see it.
            </p>
          </div>
        ) : (
          <ErrorState error={conversation.error} retry={() => void conversation.refetch()} />
        )}
      </div>
    );
  }
  return <ThreadView conversation={conversation.data} search={search} />;
}

function BackToList({ search }: { search: InboxSearch }) {
  return (
    <Link href={inboxHref(search)} className="back-link thread-back">
      <span aria-hidden="true">← </span>
      Conversations
    </Link>
  );
}

/** Marks the visitor's messages read while the member has the thread in front of them. */
function useReadWhileOpen(conversation: ConversationDetail): void {
  const markRead = useMarkRead(conversation.id);
  const { mutate, isPending } = markRead;
  const unread = conversation.unreadCount;
  useEffect(() => {
    const mark = () => {
      if (unread > 0 && !isPending && document.visibilityState === 'visible') mutate();
    };
    mark();
    document.addEventListener('visibilitychange', mark);
    return () => document.removeEventListener('visibilitychange', mark);
  }, [unread, isPending, mutate]);
}

function ThreadView({ conversation, search }: { conversation: ConversationDetail; search: InboxSearch }) {
  const members = useMembers().data ?? [];
  const myId = useMyMemberId();
  const update = useUpdateConversation(conversation.id);
  const replyBox = useRef<HTMLTextAreaElement>(null);
  const contact = conversation.participantsContacts[0];
  // As the list names them (personOf), from the detail record: the list may not have this conversation loaded.
  const person = (contact && [contact.firstName, contact.lastName].filter(Boolean).join(' ')) || contact?.email || contact?.phoneNumber || 'Visitor';
  const title = conversation.title || `Conversation with ${person}`;
  usePageTitle(`${title} — Inbox`);
  useReadWhileOpen(conversation);
  useKeybinds({
    r: () => replyBox.current?.focus(),
    e: () => {
      if (conversation.status !== 'RESOLVED' && !update.isPending) update.mutate({ status: 'RESOLVED' });
    },
    a: () => {
      if (conversation.assignee?.id !== myId && !update.isPending) update.mutate({ assigneeId: myId });
    },
  });

  return (
    <article className="thread" aria-labelledby="thread-title">
      <header className="thread-head">
        <BackToList search={search} />
        <div className="thread-title-row">
          <h2 id="thread-title" className="thread-title">
            {title}
          </h2>
          <ConversationStatusBadge status={conversation.status} />
        </div>
        <p className="muted small">
          {[person, conversation.agent?.name, channelLabel(conversation.channel), conversation.isAiEnabled ? 'agent answering' : 'agent off']
            .filter(Boolean)
            .join(' · ')}
        </p>
        <ThreadActions conversation={conversation} myId={myId} members={members} update={update} />
        <ThreadLabels conversationId={conversation.id} labels={conversation.labels} />
      </header>
      <div className="thread-body">
        <div className="thread-main">
          <ThreadMessages conversation={conversation} person={person} myId={myId} members={members} />
          <ReplyForm conversationId={conversation.id} aiEnabled={conversation.isAiEnabled} inputRef={replyBox} />
        </div>
        <VisitorPanel conversation={conversation} />
      </div>
    </article>
  );
}
