import { useId } from 'react';
import { describedBy, FieldError } from './field';

interface VisibilityFieldProps {
  value: 'public' | 'private';
  /** The API's message for `visibility`, shown beside the choice. */
  error: string | undefined;
  /** What each choice means for this kind of resource. */
  privateNote: string;
  publicNote: string;
}

/** The public/private choice of an agent or a datastore, as radio buttons named `visibility`. */
export function VisibilityField({ value, error, privateNote, publicNote }: VisibilityFieldProps) {
  const id = `${useId()}-visibility`;
  return (
    <fieldset className="fieldset" aria-describedby={describedBy(id, undefined, error)}>
      <legend>Visibility</legend>
      <label className="check">
        <input type="radio" name="visibility" value="private" defaultChecked={value === 'private'} />
        <span>
          <strong>Private</strong> <span className="muted">— {privateNote}</span>
        </span>
      </label>
      <label className="check">
        <input type="radio" name="visibility" value="public" defaultChecked={value === 'public'} />
        <span>
          <strong>Public</strong> <span className="muted">— {publicNote}</span>
        </span>
      </label>
      <FieldError id={id} error={error} />
    </fieldset>
  );
}
