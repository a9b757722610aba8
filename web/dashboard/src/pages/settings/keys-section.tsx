import { fieldError } from '../../api';
import { ApiForm } from '../../components/api-form';
import { ConfirmDialog, rowDangerButton } from '../../components/confirm-dialog';
import { DataTable } from '../../components/data-table';
import { DateCell } from '../../components/date-time';
import { Field } from '../../components/field';
import { FormAlert } from '../../components/form-alert';
import { DoneAction, SubmitActions } from '../../components/form-actions';
import { ModalDialog } from '../../components/modal-dialog';
import { QueryView } from '../../components/query-status';
import { SecretOnce } from '../../components/secret-once';
import { useCreateKey, useDeleteKey, useKeys } from '../../queries/keys';
import { SectionHeader } from './section-header';

function NewKeyForm({ close }: { close: () => void }) {
  const create = useCreateKey();
  if (create.data !== undefined) {
    return (
      <div className="stack">
        <SecretOnce
          label={`The key “${create.data.name}”`}
          secret={create.data.key}
          note="Copy it now and keep it somewhere safe: it is shown only this once. Send it as “Authorization: Bearer <key>”."
        />
        <DoneAction close={close} />
      </div>
    );
  }
  return (
    <ApiForm
      onSubmit={(form) => {
        const name = form.text('name').trim();
        create.mutate(name === '' ? {} : { name });
      }}
    >
      <FormAlert error={create.error} fields={['name']} />
      <Field label="Name" error={fieldError(create.error, 'name')} hint="Where it will be used, e.g. “Website backend”.">
        {(control) => <input {...control} className="input" name="name" maxLength={200} />}
      </Field>
      <SubmitActions pending={create.isPending} label="Create key" pendingLabel="Creating…" />
    </ApiForm>
  );
}

/** The workspace's API keys: every member manages them, every key has every right. */
export function KeysSection() {
  const keys = useKeys();
  const remove = useDeleteKey();
  return (
    <section className="stack">
      <SectionHeader
        title="API keys"
        description="Programs call the Parley API with a key. Every key has the same rights; a workspace keeps at least one."
        action={
          <ModalDialog
            title="New API key"
            trigger={
              <button type="button" className="button button-primary">
                New key
              </button>
            }
          >
            {(close) => <NewKeyForm close={close} />}
          </ModalDialog>
        }
      />
      <QueryView query={keys} loading="Loading keys…">
        {(data) => (
          <DataTable caption="API keys" columns={['Name', 'Key', 'Created', 'Last used']} actions>
            {data.map((key) => (
              <tr key={key.id}>
                <td data-label="Name">{key.name}</td>
                <td data-label="Key" className="mono">
                  {key.prefix}…
                </td>
                <DateCell label="Created" iso={key.createdAt} />
                <DateCell label="Last used" iso={key.lastUsedAt} relative />
                <td className="row-actions">
                  <ConfirmDialog
                    trigger={rowDangerButton('Delete', `Delete the key ${key.name}`)}
                    title={`Delete the key “${key.name}”?`}
                    description={`Programs using ${key.prefix}… will be refused from now on. A deleted key cannot be brought back.`}
                    confirmLabel="Delete key"
                    onConfirm={() => remove.mutateAsync(key.id)}
                  />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </QueryView>
    </section>
  );
}
