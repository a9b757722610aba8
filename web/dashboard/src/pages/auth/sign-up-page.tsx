import { Link, useLocation } from 'wouter';
import { fieldError } from '../../api';
import { Field } from '../../components/field';
import { FormAlert } from '../../components/form-alert';
import { LoadingState } from '../../components/query-status';
import { ApiForm } from '../../components/api-form';
import { useSetupStatus, useSignUp } from '../../queries/session';
import { HOME } from '../../session/next-path';
import { AuthLayout } from './auth-layout';
import { PasswordField } from './password-field';

/** An account and a workspace of one's own, when the server allows sign-up (`PARLEY_SIGNUP=open`). */
export function SignUpPage() {
  const status = useSetupStatus();
  const [, navigate] = useLocation();
  const signUp = useSignUp();
  const footer = (
    <p>
      Already have an account? <Link href="/sign-in">Sign in</Link>
    </p>
  );
  if (status.isPending) return <LoadingState fullPage />;
  if (status.data?.signUpOpen !== true) {
    return (
      <AuthLayout title="Sign-up is closed" footer={footer}>
        <p>This Parley does not take new accounts. Ask a workspace owner to invite you.</p>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Create an account" intro="Your account and a workspace for your team." footer={footer}>
      <ApiForm
        onSubmit={(form) => {
          signUp.mutate(
            {
              name: form.text('name').trim(),
              email: form.text('email').trim(),
              password: form.text('password'),
              workspaceName: form.text('workspaceName').trim(),
            },
            { onSuccess: () => navigate(HOME, { replace: true }) },
          );
        }}
      >
        <FormAlert error={signUp.error} fields={['name', 'email', 'password', 'workspaceName']} />
        <Field label="Your name" error={fieldError(signUp.error, 'name')}>
          {(control) => <input {...control} className="input" name="name" autoComplete="name" required />}
        </Field>
        <Field label="E-mail" error={fieldError(signUp.error, 'email')}>
          {(control) => <input {...control} className="input" type="email" name="email" autoComplete="username" required />}
        </Field>
        <PasswordField error={fieldError(signUp.error, 'password')} />
        <Field label="Workspace name" error={fieldError(signUp.error, 'workspaceName')} hint="Usually your team or company.">
          {(control) => <input {...control} className="input" name="workspaceName" autoComplete="organization" required />}
        </Field>
        <button type="submit" className="button button-primary button-block" disabled={signUp.isPending}>
          {signUp.isPending ? 'Creating…' : 'Create the account'}
        </button>
      </ApiForm>
    </AuthLayout>
  );
}
