import type { ReactNode } from 'react';
import { readForm, type SubmittedForm } from './form-data';

interface ApiFormProps {
  /** Told the submitted fields and the form element (to reset it after a success). */
  onSubmit: (form: SubmittedForm, element: HTMLFormElement) => void;
  className?: string;
  children: ReactNode;
}

/**
 * A form the API checks: the browser's own validation is off, so the API's messages show beside the fields
 * (`Field`, `FormAlert`), and the fields are read on submit instead of the browser sending them.
 */
export function ApiForm({ onSubmit, className = 'form', children }: ApiFormProps) {
  return (
    <form className={className} noValidate onSubmit={(event) => onSubmit(readForm(event), event.currentTarget)}>
      {children}
    </form>
  );
}
