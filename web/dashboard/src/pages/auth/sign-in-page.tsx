import { Link, Redirect, useLocation, useSearchParams } from 'wouter';
import { fieldError } from '../../api';
import { Field } from '../../components/field';
import { FormAlert } from '../../components/form-alert';
import { ApiForm } from '../../components/api-form';
import { useMe, useSetupStatus, useSignIn } from '../../queries/session';
import { safeNext } from '../../session/next-path';
import { AuthLayout } from './auth-layout';
import { PasswordField } from './password-field';

export function SignInPage() {
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const [, navigate] = useLocation();
  const me = useMe();
  const status = useSetupStatus();
  const signIn = useSignIn();

  if (me.isSuccess && !signIn.isPending) return <Redirect to={next} replace />;

  return (
    <AuthLayout
      title="Sign in"
      intro="Sign in to manage your workspace’s agents and knowledge."
      footer={
        status.data?.signUpOpen === true ? (
          <p>
            New here? <Link href="/sign-up">Create an account</Link>
          </p>
        ) : undefined
      }
    >
      {status.data?.setupRequired === true && (
        <div className="alert alert-info" role="status">
          This Parley has no account yet. Open the setup link printed in the server log when it started to create the owner’s account.
        </div>
      )}
      <ApiForm
        onSubmit={(form) => {
          signIn.mutate(
            { email: form.text('email').trim(), password: form.text('password') },
            { onSuccess: () => navigate(next, { replace: true }) },
          );
        }}
      >
        <FormAlert error={signIn.error} fields={['email', 'password']} />
        <Field label="E-mail" error={fieldError(signIn.error, 'email')}>
          {(control) => <input {...control} className="input" type="email" name="email" autoComplete="username" required />}
        </Field>
        <PasswordField error={fieldError(signIn.error, 'password')} autoComplete="current-password" />
        <p className="auth-aside">
          <Link href="/forgot-password">Forgot password?</Link>
        </p>
        <button type="submit" className="button button-primary button-block" disabled={signIn.isPending}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </button>
      </ApiForm>
    </AuthLayout>
  );
}
