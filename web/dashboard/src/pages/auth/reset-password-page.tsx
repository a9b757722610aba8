import { Link, useLocation } from 'wouter';
import { ApiError, fieldError } from '../../api';
import { FormAlert } from '../../components/form-alert';
import { ApiForm } from '../../components/api-form';
import { useResetPassword } from '../../queries/session';
import { HOME } from '../../session/next-path';
import { AuthLayout } from './auth-layout';
import { PasswordField } from './password-field';
import { useTokenParam } from './token-param';

/** The link of a password-reset e-mail (`/dashboard/reset-password?token=…`). */
export function ResetPasswordPage() {
  const token = useTokenParam();
  const [, navigate] = useLocation();
  const reset = useResetPassword();
  const linkGone = token === '' || (reset.error instanceof ApiError && reset.error.status === 404);
  return (
    <AuthLayout
      title="Choose a new password"
      footer={
        <p>
          Remembered it? <Link href="/sign-in">Sign in</Link>
        </p>
      }
    >
      <ApiForm
        onSubmit={(form) => {
          reset.mutate({ token, password: form.text('password') }, { onSuccess: () => navigate(HOME, { replace: true }) });
        }}
      >
        {linkGone ? (
          <div className="alert alert-error" role="alert">
            This reset link is unknown, already used or expired. Ask for a new one.
          </div>
        ) : (
          <FormAlert error={reset.error} fields={['password']} />
        )}
        <PasswordField label="New password" error={fieldError(reset.error, 'password')} />
        <button type="submit" className="button button-primary button-block" disabled={reset.isPending || token === ''}>
          {reset.isPending ? 'Saving…' : 'Save the password and sign in'}
        </button>
      </ApiForm>
    </AuthLayout>
  );
}
