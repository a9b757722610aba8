import { fieldError } from '../../api';
import { ApiForm } from '../../components/api-form';
import { ConfirmDialog, rowDangerButton } from '../../components/confirm-dialog';
import { DataTable } from '../../components/data-table';
import { Field } from '../../components/field';
import { FormAlert } from '../../components/form-alert';
import { SubmitActions } from '../../components/form-actions';
import { ModalDialog } from '../../components/modal-dialog';
import { QueryView } from '../../components/query-status';
import { useCreateLabel, useDeleteLabel, useLabels, useUpdateLabel, type Label } from '../../queries/labels';
import { SectionHeader } from './section-header';

const DEFAULT_COLOR = '#2455d6';

/** A new label, or a change to one (`label`). */
function LabelForm({ label, close }: { label?: Label; close: () => void }) {
  const create = useCreateLabel();
  const update = useUpdateLabel(label?.id ?? '');
  const saving = label === undefined ? create : update;
  return (
    <ApiForm
      onSubmit={(form) => {
        const body = { name: form.text('name').trim(), color: form.text('color') };
        if (label === undefined) create.mutate(body, { onSuccess: close });
        else update.mutate(body, { onSuccess: close });
      }}
    >
      <FormAlert error={saving.error} fields={['name', 'color']} />
      <Field label="Name" error={fieldError(saving.error, 'name')}>
        {(control) => <input {...control} className="input" name="name" maxLength={50} defaultValue={label?.name} required />}
      </Field>
      <Field label="Colour" error={fieldError(saving.error, 'color')}>
        {(control) => <input {...control} className="input input-color" type="color" name="color" defaultValue={label?.color ?? DEFAULT_COLOR} />}
      </Field>
      <SubmitActions pending={saving.isPending} label={label === undefined ? 'Create label' : 'Save changes'} />
    </ApiForm>
  );
}

/** The workspace's labels (`/settings/labels`), put on conversations in the inbox. */
export function LabelsSection() {
  const labels = useLabels();
  const remove = useDeleteLabel();
  return (
    <section className="stack">
      <SectionHeader
        title="Labels"
        description="Sort conversations: put labels on them in a thread or in bulk from the inbox, and filter the inbox by one."
        action={
          <ModalDialog
            title="New label"
            trigger={
              <button type="button" className="button button-primary">
                New label
              </button>
            }
          >
            {(close) => <LabelForm close={close} />}
          </ModalDialog>
        }
      />
      <QueryView query={labels} loading="Loading labels…">
        {(data) =>
          data.length === 0 ? (
            <p className="muted">No labels yet.</p>
          ) : (
            <DataTable caption="Labels" columns={['Label', 'Colour']} actions>
              {data.map((label) => (
                <tr key={label.id}>
                  <td data-label="Label">
                    <span className="label-chip">
                      <span className="label-dot" style={{ background: label.color }} aria-hidden="true" />
                      <span className="label-chip-name">{label.name}</span>
                    </span>
                  </td>
                  <td data-label="Colour" className="mono">
                    {label.color}
                  </td>
                  <td className="row-actions">
                    <ModalDialog
                      title={`Edit “${label.name}”`}
                      trigger={
                        <button type="button" className="button button-small button-quiet" aria-label={`Edit the label ${label.name}`}>
                          Edit
                        </button>
                      }
                    >
                      {(close) => <LabelForm label={label} close={close} />}
                    </ModalDialog>
                    <ConfirmDialog
                      trigger={rowDangerButton('Delete', `Delete the label ${label.name}`)}
                      title={`Delete the label “${label.name}”?`}
                      description="It comes off every conversation it is on."
                      confirmLabel="Delete label"
                      onConfirm={() => remove.mutateAsync(label.id)}
                    />
                  </td>
                </tr>
              ))}
            </DataTable>
          )
        }
      </QueryView>
    </section>
  );
}
