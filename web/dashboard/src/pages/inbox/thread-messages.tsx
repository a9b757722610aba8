import { useLayoutEffect, useRef } from 'react';
import { AnswerSources } from '../../components/answer-sources';
import { DateTime } from '../../components/date-time';
import { useRateMessage, type ConversationDetail, type MessageEval, type ThreadMessage } from '../../queries/conversations';
import type { Member } from '../../queries/members';

interface ThreadMessagesProps {
  conversation: ConversationDetail;
  /** Who the visitor is, as the inbox names them. */
  person: string;
  /** The signed-in member's id. */
  myId: string;
  members: readonly Member[];
}

type Side = 'visitor' | 'agent' | 'member' | 'system';

const sideOf = (message: ThreadMessage): Side =>
  message.from === 'system' ? 'system' : message.from === 'agent' ? 'agent' : message.sender?.type === 'user' ? 'member' : 'visitor';

function senderName(message: ThreadMessage, { conversation, person, myId, members }: ThreadMessagesProps): string {
  switch (sideOf(message)) {
    case 'system':
      return 'Notice';
    case 'agent':
      return conversation.agent?.name ?? 'Agent';
    case 'visitor':
      return person;
    case 'member': {
      const member = members.find((known) => known.id === message.sender?.id);
      const name = message.sender?.name || member?.name || member?.email || 'A member';
      return message.sender?.id === myId ? `${name} (you)` : name;
    }
  }
}

/** The conversation's messages, oldest first, with who wrote each and when; answers with their sources and rating. */
export function ThreadMessages(props: ThreadMessagesProps) {
  const { conversation } = props;
  const log = useRef<HTMLDivElement>(null);
  const seen = useRef({ id: '', count: 0 });

  // A newly opened thread starts at its end; a new message scrolls there when the reader was near it.
  useLayoutEffect(() => {
    const element = log.current;
    if (element === null) return;
    const opened = seen.current.id !== conversation.id;
    const grew = conversation.messages.length > seen.current.count;
    const nearEnd = element.scrollHeight - element.scrollTop - element.clientHeight < 160;
    if (opened || (grew && nearEnd)) element.scrollTop = element.scrollHeight;
    seen.current = { id: conversation.id, count: conversation.messages.length };
  }, [conversation.id, conversation.messages.length]);

  return (
    <div className="thread-log" ref={log} role="log" aria-label="Messages" tabIndex={0}>
      {conversation.messages.length === 0 ? (
        <p className="muted chat-empty">No messages yet.</p>
      ) : (
        <ol className="messages">
          {conversation.messages.map((message) => (
            <li key={message.id} className={`message message-${sideOf(message)}`}>
              <div className="message-head">
                <span className="message-sender">{senderName(message, props)}</span>
                <span className="muted small">
                  <DateTime iso={message.createdAt} />
                </span>
              </div>
              <p className="message-text">{message.text}</p>
              {message.from === 'agent' && (
                <>
                  {message.sources.length > 0 && <AnswerSources sources={message.sources} defaultOpen={false} />}
                  <AnswerRating conversationId={conversation.id} message={message} />
                </>
              )}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

const RATINGS: ReadonlyArray<{ value: Exclude<MessageEval, null>; label: string }> = [
  { value: 'GOOD', label: 'Good answer' },
  { value: 'BAD', label: 'Bad answer' },
];

/** How good an answer was, by a member: pressing the chosen rating again clears it. */
function AnswerRating({ conversationId, message }: { conversationId: string; message: ThreadMessage }) {
  const rate = useRateMessage(conversationId);
  return (
    <div className="rating" role="group" aria-label="Rate this answer">
      {RATINGS.map(({ value, label }) => (
        <button
          key={value}
          type="button"
          className="button button-small button-quiet rating-button"
          aria-pressed={message.eval === value}
          disabled={rate.isPending}
          onClick={() => rate.mutate({ messageId: message.id, rating: message.eval === value ? null : value })}
        >
          {label}
        </button>
      ))}
      {rate.isError && (
        <span className="field-error" role="alert">
          {rate.error.message}
        </span>
      )}
    </div>
  );
}
