import { fieldError } from '../../api';
import { ConfirmDialog, rowDangerButton } from '../../components/confirm-dialog';
import { DateCell } from '../../components/date-time';
import { Field } from '../../components/field';
import { FormAlert } from '../../components/form-alert';
import { DataTable } from '../../components/data-table';
import { QueryView } from '../../components/query-status';
import { ApiForm } from '../../components/api-form';
import { SubmitActions } from '../../components/form-actions';
import { SuccessNotice } from '../../components/success-notice';
import { useBrowserSessions, useRevokeSession, useUpdateMe } from '../../queries/session';
import { useSession } from '../../session/session';
import { SectionHeader } from './section-header';

function ProfileForm() {
  const { me } = useSession();
  const update = useUpdateMe();
  return (
    <ApiForm onSubmit={(form) => update.mutate({ name: form.text('name').trim() })}>
      <h3 className="form-section-title">Profile</h3>
      <SuccessNotice shown={update.isSuccess} />
      <FormAlert error={update.error} fields={['name']} />
      <Field label="E-mail">{(control) => <input {...control} className="input" value={me.user.email} readOnly />}</Field>
      <Field label="Name" error={fieldError(update.error, 'name')}>
        {(control) => <input {...control} className="input" name="name" defaultValue={me.user.name} autoComplete="name" />}
      </Field>
      <SubmitActions pending={update.isPending} label="Save name" />
    </ApiForm>
  );
}

function PasswordForm() {
  const update = useUpdateMe();
  return (
    <ApiForm
      onSubmit={(form, element) =>
        update.mutate({ currentPassword: form.text('currentPassword'), password: form.text('password') }, { onSuccess: () => element.reset() })
      }
    >
      <h3 className="form-section-title">Password</h3>
      <SuccessNotice shown={update.isSuccess}>Password changed.</SuccessNotice>
      <FormAlert error={update.error} fields={['currentPassword', 'password']} />
      <Field label="Current password" error={fieldError(update.error, 'currentPassword')}>
        {(control) => <input {...control} className="input" type="password" name="currentPassword" autoComplete="current-password" required />}
      </Field>
      <Field label="New password" error={fieldError(update.error, 'password')} hint="At least 10 characters.">
        {(control) => <input {...control} className="input" type="password" name="password" autoComplete="new-password" required />}
      </Field>
      <SubmitActions pending={update.isPending} label="Change password" />
    </ApiForm>
  );
}

function Sessions() {
  const sessions = useBrowserSessions();
  const revoke = useRevokeSession();
  const { signOut } = useSession();
  return (
    <section className="stack" aria-labelledby="sessions-heading">
      <h3 id="sessions-heading" className="form-section-title">
        Where you are signed in
      </h3>
      <QueryView query={sessions} loading="Loading sessions…">
        {(data) => (
          <DataTable caption="Sessions" columns={['Browser', 'Signed in', 'Last seen']} actions>
            {data.map((session) => (
              <tr key={session.id}>
                <td data-label="Browser">
                  <span className="break">{session.userAgent ?? 'Unknown browser'}</span>{' '}
                  {session.current && <span className="badge badge-ok">This browser</span>}
                </td>
                <DateCell label="Signed in" iso={session.createdAt} />
                <DateCell label="Last seen" iso={session.lastSeenAt} relative />
                <td className="row-actions">
                  {session.current ? (
                    <button type="button" className="button button-small" onClick={() => void signOut()}>
                      Sign out
                    </button>
                  ) : (
                    <ConfirmDialog
                      trigger={rowDangerButton('Revoke')}
                      title="Sign out this session?"
                      description={`The browser “${session.userAgent ?? 'unknown'}” is signed out at once.`}
                      confirmLabel="Revoke session"
                      onConfirm={() => revoke.mutateAsync(session.id)}
                    />
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </QueryView>
    </section>
  );
}

/** The signed-in person's own account: name, password and sessions. */
export function AccountSection() {
  return (
    <section className="stack">
      <SectionHeader title="Account" description="Your own account, in every workspace you belong to." />
      <div className="two-columns">
        <ProfileForm />
        <PasswordForm />
      </div>
      <Sessions />
    </section>
  );
}
