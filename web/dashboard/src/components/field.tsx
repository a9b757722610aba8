import { useId, type ReactNode } from 'react';

/** What a control needs to be tied to its label, hint and error. */
export interface ControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

interface FieldProps {
  label: ReactNode;
  /** The API's message for this field, shown under it. */
  error?: string;
  hint?: ReactNode;
  children: (control: ControlProps) => ReactNode;
}

/** A labelled form control with its hint and the API's validation message beside it. */
export function Field({ label, error, hint, children }: FieldProps) {
  const id = useId();
  const notes = describedBy(id, hint, error);
  return (
    <div className={error === undefined ? 'field' : 'field field-invalid'}>
      <label htmlFor={id}>{label}</label>
      {children({ id, ...(notes === undefined ? {} : { 'aria-describedby': notes }), ...(error === undefined ? {} : { 'aria-invalid': true }) })}
      <FieldHint id={id} hint={hint} />
      <FieldError id={id} error={error} />
    </div>
  );
}

/** The ids of the hint and the message a control (or a group of them, `id`) has, for its `aria-describedby`. */
export function describedBy(id: string, hint: ReactNode, error: string | undefined): string | undefined {
  const ids = [hint !== undefined ? `${id}-hint` : '', error !== undefined ? `${id}-error` : ''].filter(Boolean);
  return ids.length === 0 ? undefined : ids.join(' ');
}

/** What to enter in a control, under it (`${id}-hint`). */
export function FieldHint({ id, hint }: { id: string; hint: ReactNode }) {
  if (hint === undefined) return null;
  return (
    <div className="field-hint" id={`${id}-hint`}>
      {hint}
    </div>
  );
}

/** The API's message for a control, under it (`${id}-error`). */
export function FieldError({ id, error }: { id: string; error: string | undefined }) {
  if (error === undefined) return null;
  return (
    <div className="field-error" id={`${id}-error`}>
      {error}
    </div>
  );
}
