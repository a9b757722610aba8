import { useId, useState, type RefObject } from 'react';
import { FormAlert } from '../../components/form-alert';
import { useReply } from '../../queries/conversations';

interface ReplyFormProps {
  conversationId: string;
  /** The agent still answers here: a reply takes the conversation over. */
  aiEnabled: boolean;
  /** The text box, for the `r` shortcut. */
  inputRef: RefObject<HTMLTextAreaElement | null>;
}

/** A member's answer to the visitor, sent as a person (it takes the conversation over from the agent). */
export function ReplyForm({ conversationId, aiEnabled, inputRef }: ReplyFormProps) {
  const id = useId();
  const reply = useReply(conversationId);
  const [text, setText] = useState('');
  const send = () => {
    const message = text.trim();
    if (message === '' || reply.isPending) return;
    // Cleared at once (the reply shows in the thread as soon as it is stored); given back if it fails.
    setText('');
    reply.mutate(message, { onError: () => setText((current) => (current === '' ? message : current)) });
  };
  return (
    <form
      className="reply-form"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <FormAlert error={reply.error} />
      <label htmlFor={`${id}-text`} className="visually-hidden">
        Reply to the visitor
      </label>
      <textarea
        id={`${id}-text`}
        ref={inputRef}
        className="input reply-input"
        rows={2}
        value={text}
        maxLength={20_000}
        placeholder="Write a reply… (Enter sends, Shift+Enter adds a line)"
        aria-describedby={`${id}-hint`}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            send();
          }
        }}
      />
      <div className="reply-actions">
        <span id={`${id}-hint`} className="muted small">
          {aiEnabled ? 'Sending takes the conversation over: the agent stops answering here.' : 'The agent is off: you answer this conversation.'}
        </span>
        <button type="submit" className="button button-primary" disabled={text.trim() === '' || reply.isPending} aria-busy={reply.isPending}>
          Send reply
        </button>
      </div>
    </form>
  );
}
