import { Link } from 'wouter';
import { fieldError } from '../../api';
import { Field } from '../../components/field';
import { readForm } from '../../components/form-data';
import { FormAlert } from '../../components/form-alert';
import { useRequestPasswordReset, type ResetRequested } from '../../queries/session';
import { AuthLayout } from './auth-layout';

/** What happens next; the server's answer is the same whether or not the address has an account. */
function NextStep({ email, delivery }: { email: string; delivery: ResetRequested['delivery'] }) {
  if (delivery === 'email') {
    return (
      <div className="alert alert-success" role="status">
        <p>
          If <strong>{email}</strong> has a Parley account, a link to choose a new password is on its way to it. The link works once, for 24 hours,
          and signs you out everywhere else.
        </p>
        <p>Nothing after a few minutes? Look in the spam folder, or ask an owner of your workspace for a reset link.</p>
      </div>
    );
  }
  return (
    <div className="alert alert-info" role="status">
      <p>This Parley does not send e-mail, so the link cannot come to you directly.</p>
      <p>
        Ask an owner of your workspace: they make a reset link for you under Settings → Members. If you belong to several workspaces, ask whoever runs
        this Parley (<code>npx parley users reset-password</code>).
      </p>
    </div>
  );
}

/** "Forgot password?" from the sign-in page (`/dashboard/forgot-password`). */
export function ForgotPasswordPage() {
  const request = useRequestPasswordReset();
  const footer = (
    <p>
      Remembered it? <Link href="/sign-in">Sign in</Link>
    </p>
  );
  return (
    <AuthLayout
      title="Reset your password"
      intro="Enter the e-mail address you sign in with. We send it a link to choose a new password, or, where this Parley sends no e-mail, say who can make one."
      footer={footer}
    >
      {request.isSuccess ? (
        <NextStep email={request.variables} delivery={request.data.delivery} />
      ) : (
        <form
          className="form"
          noValidate
          onSubmit={(event) => {
            request.mutate(readForm(event).text('email').trim());
          }}
        >
          <FormAlert error={request.error} fields={['email']} />
          <Field label="E-mail" error={fieldError(request.error, 'email')}>
            {(control) => <input {...control} className="input" type="email" name="email" autoComplete="username" required />}
          </Field>
          <button type="submit" className="button button-primary button-block" disabled={request.isPending}>
            {request.isPending ? 'Sending…' : 'Send a reset link'}
          </button>
        </form>
      )}
    </AuthLayout>
  );
}
