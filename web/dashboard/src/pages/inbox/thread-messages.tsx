import { useLayoutEffect, useRef, useState } from 'react';
import type { DroppedAttachmentBody, KeptAttachmentBody } from '../../../../../src/contract/conversations';
import { download } from '../../api';
import { AnswerSources } from '../../components/answer-sources';
import { DateTime } from '../../components/date-time';
import { ImproveAnswer } from './improve-answer';
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
  const seen = useRef({ id: '', count: 0, tail: '' });
  // The last message's delivery line appears after it: the end moves then too.
  const tail = conversation.messages.at(-1)?.delivery?.state ?? '';

  // A newly opened thread starts at its end; a new message (or the last one's delivery line) scrolls there when the reader was near it.
  useLayoutEffect(() => {
    const element = log.current;
    if (element === null) return;
    const opened = seen.current.id !== conversation.id;
    const grew = conversation.messages.length > seen.current.count || tail !== seen.current.tail;
    const nearEnd = element.scrollHeight - element.scrollTop - element.clientHeight < 160;
    if (opened || (grew && nearEnd)) element.scrollTop = element.scrollHeight;
    seen.current = { id: conversation.id, count: conversation.messages.length, tail };
  }, [conversation.id, conversation.messages.length, tail]);

  return (
    <div className="thread-log" ref={log} role="log" aria-label="Messages" tabIndex={0}>
      {conversation.messages.length === 0 ? (
        <p className="muted chat-empty">No messages yet.</p>
      ) : (
        <ol className="messages">
          {conversation.messages.map((message) => (
            <li key={message.id} className={message.private ? 'message message-member message-note' : `message message-${sideOf(message)}`}>
              <div className="message-head">
                {message.private && <span className="note-label">Private note</span>}
                <span className="message-sender">{senderName(message, props)}</span>
                <span className="muted small">
                  <DateTime iso={message.createdAt} />
                </span>
              </div>
              <p className="message-text">{message.text}</p>
              {message.attachments.length > 0 && <Attachments conversationId={conversation.id} message={message} />}
              {message.delivery?.state !== undefined && <DeliveryState delivery={message.delivery} />}
              {message.from === 'agent' && (
                <>
                  {message.sources.length > 0 && <AnswerSources sources={message.sources} defaultOpen={false} />}
                  <div className="answer-actions">
                    <AnswerRating conversationId={conversation.id} message={message} />
                    <ImproveAnswer conversation={conversation} message={message} />
                  </div>
                </>
              )}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

const KIB = 1024;
const sizeLabel = (bytes: number): string =>
  bytes < KIB ? `${bytes} B` : bytes < KIB * KIB ? `${Math.round(bytes / KIB)} KB` : `${(bytes / KIB / KIB).toFixed(1)} MB`;

const isKept = (entry: ThreadMessage['attachments'][number]): entry is KeptAttachmentBody =>
  typeof (entry as Partial<KeptAttachmentBody>).id === 'string' && typeof (entry as Partial<KeptAttachmentBody>).size === 'number';
const isDropped = (entry: ThreadMessage['attachments'][number]): entry is DroppedAttachmentBody =>
  (entry as Partial<DroppedAttachmentBody>).dropped === true;

/** Files that came with the message: each kept one downloads (with the member's credential); a dropped one is named. */
function Attachments({ conversationId, message }: { conversationId: string; message: ThreadMessage }) {
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <div className="attachments">
      <ul className="attachment-list" aria-label="Attachments">
        {message.attachments.map((entry, index) =>
          isKept(entry) ? (
            <li key={entry.id}>
              <button
                type="button"
                className="attachment"
                onClick={() => {
                  setFailure(null);
                  download(`/conversations/${conversationId}/messages/${message.id}/attachments/${entry.id}`, entry.name).catch((error: unknown) =>
                    setFailure(error instanceof Error ? error.message : 'The file could not be downloaded'),
                  );
                }}
              >
                <span className="attachment-name">{entry.name}</span> <span className="muted small">{sizeLabel(entry.size)}</span>
              </button>
            </li>
          ) : isDropped(entry) ? (
            <li key={`dropped-${index}`} className="attachment attachment-dropped" title="Larger than the instance keeps">
              <span className="attachment-name">{entry.name}</span> <span className="small">not kept: too large</span>
            </li>
          ) : null,
        )}
      </ul>
      {failure !== null && (
        <p className="delivery-state delivery-state-failed" role="alert">
          {failure}
        </p>
      )}
    </div>
  );
}

const DELIVERY_LABELS = { pending: 'Sending…', sent: 'Sent', delivered: 'Delivered', read: 'Read', failed: 'Not sent' } as const;

/** How a message sent out through the conversation's channel fared; the reason in Parley's words when it has not gone. */
function DeliveryState({ delivery }: { delivery: NonNullable<ThreadMessage['delivery']> }) {
  return (
    <p className={`delivery-state delivery-state-${delivery.state}`}>
      {DELIVERY_LABELS[delivery.state]}
      {delivery.error !== null &&
        (delivery.state === 'failed' ? `: ${delivery.error}` : delivery.state === 'pending' ? ` (trying again: ${delivery.error})` : '')}
    </p>
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
