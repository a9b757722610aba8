import { fieldError } from '../../api';
import { Field } from '../../components/field';
import { NumberField } from '../../components/number-field';
import { VisibilityField } from '../../components/visibility-field';
import { FormAlert } from '../../components/form-alert';
import { ApiForm } from '../../components/api-form';
import { SubmitActions } from '../../components/form-actions';
import type { Visibility } from '../../queries/agents';
import type { Datastore, DatastoreInput } from '../../queries/datastores';

/** The API's bounds for both search weights. */
const WEIGHT_BOUNDS = { min: 0, max: 10, step: 0.1 };

const FIELDS = ['name', 'description', 'visibility', 'vectorWeight', 'keywordWeight', 'vectorWindows'];

interface DatastoreFormProps {
  /** Absent: a new datastore (name and description only; the rest keeps its defaults). */
  datastore?: Datastore;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (input: DatastoreInput) => void;
}

export function DatastoreForm({ datastore, submitLabel, pending, error, onSubmit }: DatastoreFormProps) {
  const visibilityError = fieldError(error, 'visibility');
  return (
    <ApiForm
      onSubmit={(form) => {
        const number = (name: string) => (form.text(name).trim() === '' ? undefined : Number(form.text(name)));
        onSubmit({
          name: form.text('name').trim(),
          description: form.text('description'),
          ...(datastore === undefined
            ? {}
            : {
                visibility: form.text('visibility') as Visibility,
                vectorWeight: number('vectorWeight'),
                keywordWeight: number('keywordWeight'),
                vectorWindows: form.checked('vectorWindows'),
              }),
        });
      }}
    >
      <FormAlert error={error} fields={FIELDS} />
      <Field label="Name" error={fieldError(error, 'name')}>
        {(control) => <input {...control} className="input" name="name" defaultValue={datastore?.name ?? ''} required maxLength={200} />}
      </Field>
      <Field label="Description" error={fieldError(error, 'description')} hint="What it holds, for your team.">
        {(control) => <textarea {...control} className="input" name="description" rows={2} defaultValue={datastore?.description ?? ''} />}
      </Field>
      {datastore !== undefined && (
        <>
          <VisibilityField
            value={datastore.visibility}
            error={visibilityError}
            privateNote="searched only with an API key of this workspace."
            publicNote="anyone may search it, without a key."
          />
          <div className="form-row">
            <NumberField
              label="Vector weight"
              name="vectorWeight"
              error={fieldError(error, 'vectorWeight')}
              hint="Weight of meaning-based search in hybrid mode (0–10)."
              {...WEIGHT_BOUNDS}
              defaultValue={datastore.vectorWeight}
            />
            <NumberField
              label="Keyword weight"
              name="keywordWeight"
              error={fieldError(error, 'keywordWeight')}
              hint="Weight of keyword search in hybrid mode (0–10)."
              {...WEIGHT_BOUNDS}
              defaultValue={datastore.keywordWeight}
            />
          </div>
          <label className="check">
            <input type="checkbox" name="vectorWindows" value="on" defaultChecked={datastore.vectorWindows} />
            <span>
              Read long passages whole{' '}
              <span className="muted">
                — each passage is embedded in overlapping windows the model reads in full; slower to index (about 3.5× with the built-in model).
                Changing it re-indexes this datastore in the background.
              </span>
            </span>
          </label>
        </>
      )}
      <SubmitActions pending={pending} label={submitLabel} />
    </ApiForm>
  );
}
