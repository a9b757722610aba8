import { useEffect, useRef } from 'react';
import { ApiError } from '../api';

interface FormAlertProps {
  error: unknown;
  /** The fields the form shows messages beside; problems with other fields are listed here. */
  fields?: readonly string[];
}

/**
 * The failure of a form as a whole: the API's message, or, when it named fields, a pointer to them
 * (plus any field the form has no place for).
 */
export function FormAlert({ error, fields = [] }: FormAlertProps) {
  const alert = useRef<HTMLDivElement>(null);
  // After a refused submit, keyboard and screen-reader users land on the first field to fix, else on the message.
  useEffect(() => {
    if (error === null || error === undefined) return;
    const invalid = alert.current?.closest('form')?.querySelector<HTMLElement>('[aria-invalid="true"]');
    (invalid ?? alert.current)?.focus();
  }, [error]);
  if (error === null || error === undefined) return null;
  if (!(error instanceof ApiError)) {
    return (
      <div className="alert alert-error" role="alert" tabIndex={-1} ref={alert}>
        {error instanceof Error ? error.message : 'Something went wrong.'}
      </div>
    );
  }
  const shown = error.details.filter((detail) => fields.some((field) => error.fieldMessage(field) === detail.message));
  const others = error.details.filter((detail) => !shown.includes(detail));
  return (
    <div className="alert alert-error" role="alert" tabIndex={-1} ref={alert}>
      {shown.length > 0 ? 'Please check the fields marked below.' : error.message}
      {others.length > 0 && (
        <ul>
          {others.map((detail) => (
            <li key={`${detail.field}:${detail.message}`}>
              {detail.field.replace(/^body\./, '')}: {detail.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
