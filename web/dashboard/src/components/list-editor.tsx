import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { describedBy, FieldError, FieldHint } from './field';

interface ListEditorProps {
  legend: string;
  /** What one entry is called, for its label ("Question 2") and its buttons. */
  itemLabel: string;
  items: readonly string[];
  onChange: (items: string[]) => void;
  /** At most this many entries; the add button says so once reached. */
  max: number;
  maxLength?: number;
  placeholder?: string;
  hint?: ReactNode;
  /** The API's message for the list as a whole. */
  error?: string;
  /** The API's message for one entry, by index. */
  itemError?: (index: number) => string | undefined;
  /** Text areas instead of one-line inputs. */
  multiline?: boolean;
  /** Shown when the list is empty. */
  emptyText?: string;
  inputMode?: 'url' | 'text';
}

/** An ordered list of short texts: edit each in place, add one at the end, remove any. */
export function ListEditor({
  legend,
  itemLabel,
  items,
  onChange,
  max,
  maxLength,
  placeholder,
  hint,
  error,
  itemError,
  multiline = false,
  emptyText,
  inputMode,
}: ListEditorProps) {
  const id = useId();
  const list = useRef<HTMLOListElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  // After adding or removing, focus moves to the entry that appeared or took the removed one's place.
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  useEffect(() => {
    if (focusIndex === null) return;
    const controls = list.current?.querySelectorAll<HTMLElement>('.list-editor-input');
    (controls?.[Math.min(focusIndex, controls.length - 1)] ?? addButton.current)?.focus();
    setFocusIndex(null);
  }, [focusIndex]);

  const full = items.length >= max;
  return (
    <fieldset className="fieldset list-editor" aria-describedby={describedBy(id, hint, error)}>
      <legend>{legend}</legend>
      <FieldHint id={id} hint={hint} />
      {items.length === 0 && emptyText !== undefined && <p className="muted small">{emptyText}</p>}
      <ol className="list-editor-items" ref={list}>
        {items.map((item, index) => {
          const problem = itemError?.(index);
          const label = `${itemLabel} ${index + 1}`;
          const control = {
            className: 'input list-editor-input',
            value: item,
            maxLength,
            placeholder,
            'aria-label': label,
            ...(problem === undefined ? {} : { 'aria-invalid': true as const, 'aria-describedby': `${id}-${index}-error` }),
            onChange: (event: { target: { value: string } }) => onChange(items.map((other, at) => (at === index ? event.target.value : other))),
          };
          return (
            // Index keys: the entries are plain texts and every input is controlled, so a removal re-renders the rest.
            <li key={index} className="list-editor-item">
              <div className="list-editor-row">
                {multiline ? (
                  <textarea {...control} rows={2} />
                ) : (
                  <input {...control} type={inputMode === 'url' ? 'url' : 'text'} spellCheck={inputMode !== 'url'} />
                )}
                <button
                  type="button"
                  className="button button-small button-quiet"
                  aria-label={`Remove ${label.toLowerCase()}`}
                  onClick={() => {
                    onChange(items.filter((_, at) => at !== index));
                    setFocusIndex(items.length > 1 ? index : Number.MAX_SAFE_INTEGER);
                  }}
                >
                  Remove
                </button>
              </div>
              {problem !== undefined && (
                <div className="field-error" id={`${id}-${index}-error`}>
                  {problem}
                </div>
              )}
            </li>
          );
        })}
      </ol>
      <div className="list-editor-actions">
        <button
          type="button"
          ref={addButton}
          className="button button-small"
          disabled={full}
          onClick={() => {
            onChange([...items, '']);
            setFocusIndex(items.length);
          }}
        >
          Add {itemLabel.toLowerCase()}
        </button>
        <span className="muted small">{full ? `The most there can be is ${max}.` : `Up to ${max}.`}</span>
      </div>
      <FieldError id={id} error={error} />
    </fieldset>
  );
}
