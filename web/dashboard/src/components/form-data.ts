import type { FormEvent } from 'react';

/** A submitted form's fields by name, as text (a field left out reads ''). */
export interface SubmittedForm {
  text(name: string): string;
  /** Every checked value of a group of checkboxes. */
  all(name: string): string[];
  checked(name: string): boolean;
}

/** Stops the browser's own submission and reads the form's fields. */
export function readForm(event: FormEvent<HTMLFormElement>): SubmittedForm {
  event.preventDefault();
  const data = new FormData(event.currentTarget);
  return {
    text: (name) => {
      const value = data.get(name);
      return typeof value === 'string' ? value : '';
    },
    all: (name) => data.getAll(name).filter((value): value is string => typeof value === 'string'),
    checked: (name) => data.get(name) !== null,
  };
}
