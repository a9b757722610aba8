import type { ReactNode } from 'react';
import { Field } from './field';

interface NumberFieldProps {
  label: ReactNode;
  /** The form field's name. */
  name: string;
  /** The API's message for this field. */
  error?: string;
  hint?: ReactNode;
  min: number;
  max: number;
  step: number;
  /** Absent: the field starts empty. */
  defaultValue?: number;
  inputMode?: 'decimal';
}

/** A labelled number input with its bounds, hint and the API's message beside it. */
export function NumberField({ label, name, error, hint, min, max, step, defaultValue, inputMode }: NumberFieldProps) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(control) => (
        <input
          {...control}
          className="input"
          type="number"
          name={name}
          min={min}
          max={max}
          step={step}
          defaultValue={defaultValue}
          inputMode={inputMode}
        />
      )}
    </Field>
  );
}
