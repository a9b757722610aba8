import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { FormAlert } from '../../components/form-alert';
import { useNote, useReply } from '../../queries/conversations';
import { useSavedReplies, type SavedReply } from '../../queries/saved-replies';
import { insertReply, matchingReplies, slashTokenAt } from './saved-reply-picker';

interface ReplyFormProps {
  conversationId: string;
  /** The agent still answers here: a reply takes the conversation over. */
  aiEnabled: boolean;
  /** The text box, for the `r` shortcut. */
  inputRef: RefObject<HTMLTextAreaElement | null>;
}

type Mode = 'reply' | 'note';

/**
 * A member's answer to the visitor, sent as a person (it takes the conversation over from the agent), or a
 * private note for the team. Typing `/` at the start of a word offers the saved replies.
 */
export function ReplyForm({ conversationId, aiEnabled, inputRef }: ReplyFormProps) {
  const id = useId();
  const reply = useReply(conversationId);
  const note = useNote(conversationId);
  const [mode, setMode] = useState<Mode>('reply');
  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  /** The slash whose list was closed with Esc: it stays closed until another is typed. */
  const [dismissed, setDismissed] = useState<number | null>(null);
  const pendingCaret = useRef<number | null>(null);
  const savedReplies = useSavedReplies();

  const sending = mode === 'reply' ? reply : note;
  const token = slashTokenAt(text, caret);
  const matches = token === undefined || token.start === dismissed ? [] : matchingReplies(savedReplies.data ?? [], token.query);
  const open = matches.length > 0;
  const chosen = open ? Math.min(active, matches.length - 1) : -1;
  const listId = `${id}-saved-replies`;

  // The caret goes after an inserted reply once React has written the new text.
  useLayoutEffect(() => {
    const at = pendingCaret.current;
    const box = inputRef.current;
    if (at === null || box === null) return;
    pendingCaret.current = null;
    box.setSelectionRange(at, at);
  });

  const send = () => {
    const message = text.trim();
    if (message === '' || sending.isPending) return;
    // Cleared at once (it shows in the thread as soon as it is stored); given back if it fails.
    setText('');
    setCaret(0);
    sending.mutate(message, { onError: () => setText((current) => (current === '' ? message : current)) });
  };

  const insert = (chosenReply: SavedReply) => {
    if (token === undefined) return;
    const inserted = insertReply(text, token, caret, chosenReply);
    setText(inserted.text);
    setCaret(inserted.caret);
    setActive(0);
    pendingCaret.current = inserted.caret;
    inputRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (open) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((chosen + step + matches.length) % matches.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        insert(matches[chosen]!);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        // The thread's own Esc (back to the list) must not fire too.
        event.stopPropagation();
        setDismissed(token?.start ?? null);
        return;
      }
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      send();
    }
  };

  const track = (box: HTMLTextAreaElement) => setCaret(box.selectionStart);

  return (
    <form
      className={mode === 'note' ? 'reply-form reply-form-note' : 'reply-form'}
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <div className="composer-modes" role="group" aria-label="Write a">
        <button type="button" className="composer-mode" aria-pressed={mode === 'reply'} onClick={() => setMode('reply')}>
          Reply
        </button>
        <button type="button" className="composer-mode" aria-pressed={mode === 'note'} onClick={() => setMode('note')}>
          Private note
        </button>
      </div>
      <FormAlert error={sending.error} />
      <label htmlFor={`${id}-text`} className="visually-hidden">
        {mode === 'reply' ? 'Reply to the visitor' : 'Private note for the team'}
      </label>
      <div className="composer-box">
        {open && (
          <ul className="saved-reply-menu" id={listId} role="listbox" aria-label="Saved replies">
            {matches.map((match, index) => (
              <li
                key={match.id}
                id={`${listId}-${match.id}`}
                role="option"
                aria-selected={index === chosen}
                className="saved-reply-option"
                // Kept from taking the focus away from the text box.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => insert(match)}
              >
                <span className="saved-reply-shortcut mono">/{match.shortcut}</span>
                <span className="saved-reply-title">{match.title}</span>
                <span className="saved-reply-text muted small">{match.text}</span>
              </li>
            ))}
          </ul>
        )}
        <textarea
          id={`${id}-text`}
          ref={inputRef}
          className="input reply-input"
          rows={2}
          value={text}
          maxLength={20_000}
          placeholder={
            mode === 'reply'
              ? 'Write a reply… (Enter sends, Shift+Enter adds a line, / inserts a saved reply)'
              : 'Write a private note… only your team sees it'
          }
          aria-describedby={`${id}-hint`}
          aria-autocomplete="list"
          aria-controls={open ? listId : undefined}
          aria-activedescendant={open ? `${listId}-${matches[chosen]!.id}` : undefined}
          onChange={(event) => {
            setText(event.target.value);
            track(event.target);
            setActive(0);
            const typed = slashTokenAt(event.target.value, event.target.selectionStart);
            if (typed?.start !== dismissed) setDismissed(null);
          }}
          onSelect={(event) => track(event.currentTarget)}
          onKeyDown={onKeyDown}
        />
      </div>
      <div className="reply-actions">
        <span id={`${id}-hint`} className="muted small">
          {mode === 'note'
            ? 'Never shown to the visitor: the agent and the conversation’s status are left as they are.'
            : aiEnabled
              ? 'Sending takes the conversation over: the agent stops answering here.'
              : 'The agent is off: you answer this conversation.'}
        </span>
        <button type="submit" className="button button-primary" disabled={text.trim() === '' || sending.isPending} aria-busy={sending.isPending}>
          {mode === 'reply' ? 'Send reply' : 'Add note'}
        </button>
      </div>
    </form>
  );
}
