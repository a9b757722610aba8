import { fieldError } from '../../api';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DateTime } from '../../components/date-time';
import { Field } from '../../components/field';
import { readForm } from '../../components/form-data';
import { FormAlert } from '../../components/form-alert';
import { ModalDialog } from '../../components/modal-dialog';
import { ErrorState, LoadingState } from '../../components/query-status';
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
        <div className="form-actions">
          <button type="button" className="button button-primary" onClick={close}>
            Done
          </button>
        </div>
      </div>
    );
  }
  return (
    <form
      className="form"
      noValidate
      onSubmit={(event) => {
        const name = readForm(event).text('name').trim();
        create.mutate(name === '' ? {} : { name });
      }}
    >
      <FormAlert error={create.error} fields={['name']} />
      <Field label="Name" error={fieldError(create.error, 'name')} hint="Where it will be used, e.g. “Website backend”.">
        {(control) => <input {...control} className="input" name="name" maxLength={200} />}
      </Field>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create key'}
        </button>
      </div>
    </form>
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
      {keys.isPending ? (
        <LoadingState label="Loading keys…" />
      ) : keys.isError ? (
        <ErrorState error={keys.error} retry={() => void keys.refetch()} />
      ) : (
        <div className="table-wrap">
          <table className="table table-stack">
            <caption className="visually-hidden">API keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((key) => (
                <tr key={key.id}>
                  <td data-label="Name">{key.name}</td>
                  <td data-label="Key" className="mono">
                    {key.prefix}…
                  </td>
                  <td data-label="Created">
                    <DateTime iso={key.createdAt} />
                  </td>
                  <td data-label="Last used">
                    <DateTime iso={key.lastUsedAt} relative />
                  </td>
                  <td className="row-actions">
                    <ConfirmDialog
                      trigger={
                        <button type="button" className="button button-small button-danger-quiet" aria-label={`Delete the key ${key.name}`}>
                          Delete
                        </button>
                      }
                      title={`Delete the key “${key.name}”?`}
                      description={`Programs using ${key.prefix}… will be refused from now on. A deleted key cannot be brought back.`}
                      confirmLabel="Delete key"
                      onConfirm={() => remove.mutateAsync(key.id)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
