interface FilterSelectProps {
  id: string;
  label: string;
  /** The chosen value; undefined when the filter is off. */
  value: string | undefined;
  /** The first option, which turns the filter off, e.g. "Any agent". */
  anyLabel: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  onChange: (value: string | undefined) => void;
  small?: boolean;
}

/** A drop-down that narrows a list or a report to one value, or to any. */
export function FilterSelect({ id, label, value, anyLabel, options, onChange, small = false }: FilterSelectProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className={small ? 'input input-small' : 'input'}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value || undefined)}
      >
        <option value="">{anyLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
