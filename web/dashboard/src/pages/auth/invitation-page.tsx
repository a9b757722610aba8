import { Link, useLocation } from 'wouter';
import { api, ApiError, fieldError } from '../../api';
import { Field } from '../../components/field';
import { FormAlert } from '../../components/form-alert';
import { ErrorState, LoadingState } from '../../components/query-status';
import { ApiForm } from '../../components/api-form';
import { useAcceptInvitation, useInvitation, type Me } from '../../queries/session';
import { HOME } from '../../session/next-path';
import { AuthLayout } from './auth-layout';
import { PasswordField } from './password-field';
import { useTokenParam } from './token-param';

const ROLE_WORDS = { owner: 'an owner', admin: 'an admin', member: 'a member' } as const;

/** The link of an invitation e-mail (`/dashboard/invitations?token=…`): join the workspace. */
export function InvitationPage() {
  const token = useTokenParam();
  const [, navigate] = useLocation();
  const invitation = useInvitation(token);
  const accept = useAcceptInvitation();

  const signInLink = (
    <p>
      Already a member? <Link href="/sign-in">Sign in</Link>
    </p>
  );
  if (token === '' || (invitation.error instanceof ApiError && invitation.error.status === 404)) {
    return (
      <AuthLayout title="Invitation not found" footer={signInLink}>
        <p>This invitation link is unknown, already used or expired. Ask the person who invited you for a new one.</p>
      </AuthLayout>
    );
  }
  if (invitation.isPending) return <LoadingState fullPage />;
  if (invitation.isError) return <ErrorState error={invitation.error} retry={() => void invitation.refetch()} fullPage />;
  const { email, workspaceName, role, signedIn } = invitation.data;

  /** Opens the workspace just joined, whatever workspace was used last. */
  const openWorkspace = async () => {
    const me = await api<Me>('/me', { anonymous: true });
    const joined = me.memberships.find((membership) => membership.workspaceName === workspaceName);
    navigate(joined === undefined ? HOME : `${HOME}?workspace=${encodeURIComponent(joined.workspaceId)}`, { replace: true });
  };

  return (
    <AuthLayout
      title={`Join ${workspaceName}`}
      intro={
        <>
          You are invited to <strong>{workspaceName}</strong> as {ROLE_WORDS[role]}, with the address <strong>{email}</strong>.
        </>
      }
      footer={signInLink}
    >
      <ApiForm
        onSubmit={(form) => {
          const name = form.text('name').trim();
          const account = signedIn ? {} : { ...(name === '' ? {} : { name }), password: form.text('password') };
          accept.mutate({ token, ...account }, { onSuccess: () => void openWorkspace() });
        }}
      >
        <FormAlert error={accept.error} fields={signedIn ? [] : ['name', 'password']} />
        {signedIn ? (
          <p>You are signed in with this address: accept to add this workspace to your account.</p>
        ) : (
          <>
            <p>Already have a Parley account with this address? Enter its password. Otherwise choose one to create your account.</p>
            <Field label="Your name (for a new account)" error={fieldError(accept.error, 'name')}>
              {(control) => <input {...control} className="input" name="name" autoComplete="name" />}
            </Field>
            <PasswordField label="Password" error={fieldError(accept.error, 'password')} />
          </>
        )}
        <button type="submit" className="button button-primary button-block" disabled={accept.isPending}>
          {accept.isPending ? 'Joining…' : 'Accept the invitation'}
        </button>
      </ApiForm>
    </AuthLayout>
  );
}
