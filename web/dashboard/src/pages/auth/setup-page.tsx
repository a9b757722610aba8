import { useLocation } from 'wouter';
import { ApiError, fieldError } from '../../api';
import { Field } from '../../components/field';
import { FormAlert } from '../../components/form-alert';
import { ApiForm } from '../../components/api-form';
import { useSetup } from '../../queries/session';
import { HOME } from '../../session/next-path';
import { AuthLayout } from './auth-layout';
import { PasswordField } from './password-field';
import { useTokenParam } from './token-param';

/** The first start's one-time link (`/dashboard/setup?token=…`): the owner's account. */
export function SetupPage() {
  const token = useTokenParam();
  const [, navigate] = useLocation();
  const setup = useSetup();
  const linkGone = setup.error instanceof ApiError && setup.error.status === 404;

  if (token === '') {
    return (
      <AuthLayout title="Set up Parley">
        <div className="alert alert-error" role="alert">
          This page needs the setup link printed in the server log on the first start (it ends in <code>?token=…</code>).
        </div>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Set up Parley" intro="Create the owner’s account. You can invite your team afterwards.">
      <ApiForm
        onSubmit={(form) => {
          setup.mutate(
            { token, name: form.text('name').trim(), email: form.text('email').trim(), password: form.text('password') },
            { onSuccess: () => navigate(HOME, { replace: true }) },
          );
        }}
      >
        {linkGone ? (
          <div className="alert alert-error" role="alert">
            This setup link is unknown, already used or expired. If an account exists, sign in instead.
          </div>
        ) : (
          <FormAlert error={setup.error} fields={['name', 'email', 'password']} />
        )}
        <Field label="Your name" error={fieldError(setup.error, 'name')}>
          {(control) => <input {...control} className="input" name="name" autoComplete="name" required />}
        </Field>
        <Field label="E-mail" error={fieldError(setup.error, 'email')}>
          {(control) => <input {...control} className="input" type="email" name="email" autoComplete="username" required />}
        </Field>
        <PasswordField error={fieldError(setup.error, 'password')} />
        <button type="submit" className="button button-primary button-block" disabled={setup.isPending}>
          {setup.isPending ? 'Creating the account…' : 'Create the owner account'}
        </button>
      </ApiForm>
    </AuthLayout>
  );
}
