import { useId, type ReactNode } from 'react';
import { fieldError } from '../../api';
import { ConfirmDialog, rowDangerButton } from '../../components/confirm-dialog';
import { CopyButton } from '../../components/copy-button';
import { DateCell, DateTime } from '../../components/date-time';
import { Field } from '../../components/field';
import { FormAlert } from '../../components/form-alert';
import { ModalDialog } from '../../components/modal-dialog';
import { QueryView } from '../../components/query-status';
import { ApiForm } from '../../components/api-form';
import { DataTable } from '../../components/data-table';
import { DoneAction, SubmitActions } from '../../components/form-actions';
import {
  useChangeRole,
  useInviteMember,
  useMemberPasswordReset,
  useMembers,
  useReinviteMember,
  useRemoveMember,
  type InvitedMember,
  type Member,
} from '../../queries/members';
import type { Role } from '../../session/access-tokens';
import { useCanAdminister, useSession } from '../../session/session';
import { AdminsOnly, SectionHeader } from './section-header';

const ROLES: ReadonlyArray<{ role: Role; label: string; about: string }> = [
  { role: 'member', label: 'Member', about: 'agents, datastores, keys and conversations' },
  { role: 'admin', label: 'Admin', about: 'also members, webhooks and workspace settings' },
  { role: 'owner', label: 'Owner', about: 'everything, like an admin' },
];

/** A single-use link shown once, to copy, with what to know about it (`children`: a message above it). */
function LinkShownOnce({
  label,
  url,
  note,
  close,
  children,
}: {
  label: string;
  url: string;
  note: ReactNode;
  close: () => void;
  children?: ReactNode;
}) {
  return (
    <div className="stack">
      {children}
      <div className="secret">
        <p className="secret-label">{label}</p>
        <div className="secret-row">
          <input className="input mono" readOnly value={url} aria-label={label} onFocus={(event) => event.currentTarget.select()} />
          <CopyButton text={url} label="Copy link" />
        </div>
        <p className="secret-note">{note}</p>
      </div>
      <DoneAction close={close} />
    </div>
  );
}

/** The step before a new link: what it does, the server's refusal if any, and the button that makes it. */
function MakeLink({
  about,
  action,
  error,
  pending,
  make,
}: {
  about: ReactNode;
  action: string;
  error: Error | null;
  pending: boolean;
  make: () => void;
}) {
  return (
    <div className="stack">
      <p>{about}</p>
      <FormAlert error={error} />
      <div className="form-actions">
        <button type="button" className="button button-primary" disabled={pending} onClick={make}>
          {action}
        </button>
      </div>
    </div>
  );
}

/** A fresh invitation: the message about the e-mail and the single-use link to copy, shown once. */
function InvitationSent({ invited, close }: { invited: InvitedMember; close: () => void }) {
  const { email, invitationUrl, invitationExpiresAt, emailed } = invited;
  return (
    <LinkShownOnce
      label="Invitation link"
      url={invitationUrl}
      close={close}
      note={
        <>
          It works once, until <DateTime iso={invitationExpiresAt} />. This is the only time it is shown.
        </>
      }
    >
      <div className="alert alert-success" role="status">
        {emailed
          ? `${email} is invited: the invitation is on its way by e-mail.`
          : `${email} is invited. E-mail is not set up on this server: send them the link below.`}
      </div>
    </LinkShownOnce>
  );
}

/** Sends an invited member a new link (the old one may be lost or expired). */
function ReinviteForm({ member, close }: { member: Member; close: () => void }) {
  const reinvite = useReinviteMember();
  if (reinvite.data !== undefined) return <InvitationSent invited={reinvite.data} close={close} />;
  return (
    <MakeLink
      about={`A new single-use link for ${member.email}; the previous one keeps working until it is used or expires.`}
      action="Send a new link"
      error={reinvite.error}
      pending={reinvite.isPending}
      make={() => reinvite.mutate(member.id)}
    />
  );
}

/**
 * An owner's reset link for a member who cannot sign in (a lost password, no e-mail on this server). The
 * server refuses it (409) for a person who belongs to another workspace too: they use "Forgot password?".
 */
function PasswordResetForm({ member, close }: { member: Member; close: () => void }) {
  const reset = useMemberPasswordReset();
  if (reset.data !== undefined) {
    return (
      <LinkShownOnce
        label="Password-reset link"
        url={reset.data.passwordResetUrl}
        close={close}
        note={
          <>
            Give it to {member.email} only, in person or over a channel you trust: whoever opens it chooses the password. It works once, until{' '}
            <DateTime iso={reset.data.passwordResetExpiresAt} />, and signs them out everywhere. This is the only time it is shown.
          </>
        }
      />
    );
  }
  return (
    <MakeLink
      about={`A single-use link that lets ${member.email} choose a new password; earlier reset links stop working. Only for a person who belongs to this workspace alone: others reset theirs with “Forgot password?” on the sign-in page.`}
      action="Make a reset link"
      error={reset.error}
      pending={reset.isPending}
      make={() => reset.mutate(member.id)}
    />
  );
}

function InviteForm({ close }: { close: () => void }) {
  const invite = useInviteMember();
  if (invite.data !== undefined) return <InvitationSent invited={invite.data} close={close} />;
  return (
    <ApiForm
      onSubmit={(form) => {
        const name = form.text('name').trim();
        invite.mutate({ email: form.text('email').trim(), role: form.text('role') as Role, ...(name === '' ? {} : { name }) });
      }}
    >
      <FormAlert error={invite.error} fields={['email', 'name', 'role']} />
      <Field label="E-mail" error={fieldError(invite.error, 'email')}>
        {(control) => <input {...control} className="input" type="email" name="email" autoComplete="off" required />}
      </Field>
      <Field label="Name" error={fieldError(invite.error, 'name')} hint="Optional; they can change it.">
        {(control) => <input {...control} className="input" name="name" autoComplete="off" />}
      </Field>
      <Field label="Role" error={fieldError(invite.error, 'role')}>
        {(control) => (
          <select {...control} className="input" name="role" defaultValue="member">
            {ROLES.map(({ role, label, about }) => (
              <option key={role} value={role}>
                {label} — {about}
              </option>
            ))}
          </select>
        )}
      </Field>
      <SubmitActions pending={invite.isPending} label="Send invitation" pendingLabel="Inviting…" />
    </ApiForm>
  );
}

function RoleSelect({ member }: { member: Member }) {
  const id = useId();
  const change = useChangeRole();
  return (
    <div className="role-select">
      <label htmlFor={id} className="visually-hidden">
        Role of {member.name || member.email}
      </label>
      <select
        id={id}
        className="input input-small"
        value={change.isPending ? change.variables.role : member.role}
        onChange={(event) => change.mutate({ id: member.id, role: event.target.value as Role })}
        disabled={change.isPending}
      >
        {ROLES.map(({ role, label }) => (
          <option key={role} value={role}>
            {label}
          </option>
        ))}
      </select>
      {change.isError && (
        <div className="field-error" role="alert">
          {change.error.message}
        </div>
      )}
    </div>
  );
}

/** Who is in the workspace; owners and admins invite, change roles and remove. */
export function MembersSection() {
  const members = useMembers();
  const remove = useRemoveMember();
  const canAdminister = useCanAdminister();
  const { me, workspace } = useSession();
  const isOwner = workspace.role === 'owner';
  return (
    <section className="stack">
      <SectionHeader
        title="Members"
        description="People who use this dashboard. Owners and admins also receive notification e-mails."
        action={
          canAdminister ? (
            <ModalDialog
              title="Invite a member"
              trigger={
                <button type="button" className="button button-primary">
                  Invite member
                </button>
              }
            >
              {(close) => <InviteForm close={close} />}
            </ModalDialog>
          ) : undefined
        }
      />
      {!canAdminister && <AdminsOnly what="members" />}
      <QueryView query={members} loading="Loading members…">
        {(data) => (
          <DataTable caption="Members" columns={['Person', 'Role', 'Status', 'Added']} actions={canAdminister}>
            {data.map((member) => (
              <tr key={member.id}>
                <td data-label="Person">
                  <div>{member.name || member.email}</div>
                  {member.name !== '' && <div className="muted small">{member.email}</div>}
                  {member.email === me.user.email && <span className="badge badge-neutral">You</span>}
                </td>
                <td data-label="Role">{canAdminister ? <RoleSelect member={member} /> : ROLES.find((r) => r.role === member.role)?.label}</td>
                <td data-label="Status">
                  <span className={member.status === 'active' ? 'badge badge-ok' : 'badge badge-waiting'}>
                    {member.status === 'active' ? 'Active' : 'Invited'}
                  </span>
                </td>
                <DateCell label="Added" iso={member.createdAt} />
                {canAdminister && (
                  <td className="row-actions">
                    {member.status === 'invited' && (
                      <ModalDialog
                        trigger={
                          <button type="button" className="button button-small" aria-label={`New link for ${member.email}`}>
                            New link
                          </button>
                        }
                        title="Send the invitation again"
                      >
                        {(close) => <ReinviteForm member={member} close={close} />}
                      </ModalDialog>
                    )}
                    {isOwner && member.status === 'active' && member.email !== me.user.email && (
                      <ModalDialog
                        trigger={
                          <button type="button" className="button button-small" aria-label={`Reset password for ${member.email}`}>
                            Reset password
                          </button>
                        }
                        title={`Reset the password of ${member.name || member.email}`}
                      >
                        {(close) => <PasswordResetForm member={member} close={close} />}
                      </ModalDialog>
                    )}
                    <ConfirmDialog
                      trigger={rowDangerButton('Remove', `Remove ${member.name || member.email}`)}
                      title={`Remove ${member.name || member.email} from the workspace?`}
                      description="They lose access at once; their account stays, for other workspaces."
                      confirmLabel="Remove member"
                      onConfirm={() => remove.mutateAsync(member.id)}
                    />
                  </td>
                )}
              </tr>
            ))}
          </DataTable>
        )}
      </QueryView>
    </section>
  );
}
