import { useId, type ReactNode } from 'react';
import { describedBy, FieldError, FieldHint } from './field';

interface ChoiceFieldProps<T extends string> {
  legend: ReactNode;
  /** The radio group's name (unique in the form). */
  name: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
  hint?: ReactNode;
  /** The API's message for this field. */
  error?: string;
  disabled?: boolean;
}

/** One of a few choices, as radio buttons drawn side by side (a segmented control). */
export function ChoiceField<T extends string>({ legend, name, value, options, onChange, hint, error, disabled = false }: ChoiceFieldProps<T>) {
  const id = useId();
  return (
    <fieldset className="fieldset" aria-describedby={describedBy(id, hint, error)} disabled={disabled}>
      <legend>{legend}</legend>
      <div className="segmented">
        {options.map((option) => (
          <label key={option.value} className="segment">
            <input type="radio" name={name} value={option.value} checked={value === option.value} onChange={() => onChange(option.value)} />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
      <FieldHint id={id} hint={hint} />
      <FieldError id={id} error={error} />
    </fieldset>
  );
}
