import { fieldError } from '../../api';
import { Field } from '../../components/field';

interface VendorApiFieldProps {
  /** What the vendor calls its API (`Bot API server`, `Web API`). */
  label: string;
  /** The vendor's own address, used when the field is left empty. */
  standard: string;
  /** The address kept now, shown only when it is not the vendor's own. */
  kept: string | undefined;
  hint: string;
  /** The last save's failure, whose message for the field shows under it. */
  error: unknown;
}

/** The "Advanced" part of a channel's form: the vendor API's address (a self-hosted server, a test server), `config.apiBaseUrl`. */
export function VendorApiField({ label, standard, kept, hint, error }: VendorApiFieldProps) {
  const invalid = fieldError(error, 'config.apiBaseUrl');
  return (
    <details className="overrides" open={invalid !== undefined ? true : undefined}>
      <summary>Advanced</summary>
      <Field label={label} error={invalid} hint={hint}>
        {(control) => (
          <input
            {...control}
            className="input mono"
            type="url"
            name="apiBaseUrl"
            defaultValue={kept === standard ? '' : (kept ?? '')}
            placeholder={standard}
            spellCheck={false}
          />
        )}
      </Field>
    </details>
  );
}
