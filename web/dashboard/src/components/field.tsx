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
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint !== undefined ? hintId : '', error !== undefined ? errorId : ''].filter(Boolean).join(' ');
  return (
    <div className={error === undefined ? 'field' : 'field field-invalid'}>
      <label htmlFor={id}>{label}</label>
      {children({ id, ...(describedBy === '' ? {} : { 'aria-describedby': describedBy }), ...(error === undefined ? {} : { 'aria-invalid': true }) })}
      {hint !== undefined && (
        <div className="field-hint" id={hintId}>
          {hint}
        </div>
      )}
      {error !== undefined && (
        <div className="field-error" id={errorId}>
          {error}
        </div>
      )}
    </div>
  );
}
