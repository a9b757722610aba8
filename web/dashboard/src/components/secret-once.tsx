import { useId } from 'react';
import { CopyButton } from './copy-button';

/** A secret the API shows only once (a key, a webhook's signing secret), with a copy button. */
export function SecretOnce({ label, secret, note }: { label: string; secret: string; note: string }) {
  const id = useId();
  return (
    <div className="secret">
      <label htmlFor={id} className="secret-label">
        {label}
      </label>
      <div className="secret-row">
        <input id={id} className="input mono" readOnly value={secret} onFocus={(event) => event.currentTarget.select()} />
        <CopyButton text={secret} />
      </div>
      <p className="secret-note">{note}</p>
    </div>
  );
}
