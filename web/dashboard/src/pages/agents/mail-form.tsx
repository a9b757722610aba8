import { useId, useState } from 'react';
import { fieldError } from '../../api';
import { ApiForm } from '../../components/api-form';
import { ChoiceField } from '../../components/choice-field';
import { Field } from '../../components/field';
import { SubmitActions } from '../../components/form-actions';
import { FormAlert } from '../../components/form-alert';
import type { SubmittedForm } from '../../components/form-data';
import {
  useConnectChannel,
  useUpdateChannel,
  type ChannelConnection,
  type MailConfig,
  type MailConfigInput,
  type MailInbound,
} from '../../queries/channels';

const INBOUND: readonly { value: MailInbound; label: string }[] = [
  { value: 'smtp', label: 'Forwarded to Parley' },
  { value: 'imap', label: 'IMAP mailbox' },
];

const INBOUND_HINTS: Readonly<Record<MailInbound, string>> = {
  smtp: 'Your mail server forwards the address’s mail to Parley’s own SMTP listener; the card shows where to.',
  imap: 'Parley logs in to the mailbox and takes new mail from it every minute or so.',
};

const FIELDS = [
  'config.address',
  'config.name',
  'config.inbound',
  'config.imap.host',
  'config.imap.port',
  'config.imap.user',
  'config.imap.password',
  'config.imap.mailbox',
  'config.smtp.host',
  'config.smtp.port',
  'config.smtp.user',
  'config.smtp.password',
];

/** A port as typed; empty: the default. */
const portOf = (form: SubmittedForm, name: string): { port?: number } => {
  const text = form.text(name).trim();
  return text === '' ? {} : { port: Number(text) };
};

/** An optional text field: empty leaves it out (editing: keeps what is stored). */
const optional = <K extends string>(key: K, value: string): Partial<Record<K, string>> =>
  (value.trim() === '' ? {} : { [key]: value.trim() }) as Partial<Record<K, string>>;

/** "tls", "starttls" or "" (by the port) as the API's `secure`. */
const secureOf = (value: string): { secure?: boolean } => (value === '' ? {} : { secure: value === 'tls' });

const secureValue = (secure: boolean | undefined): string => (secure === undefined ? '' : secure ? 'tls' : 'starttls');

interface MailFormProps {
  agentId: string;
  agentName: string;
  connection?: ChannelConnection & { config: MailConfig };
  close: () => void;
}

/** An address the agent answers at: how its mail reaches Parley, how replies leave, and who writes them. */
export function MailForm({ agentId, agentName, connection, close }: MailFormProps) {
  const id = useId();
  const create = useConnectChannel(agentId);
  const update = useUpdateChannel({ id: connection?.id ?? '', agentId });
  const save = connection === undefined ? create : update;
  const kept = connection?.config;
  const [inbound, setInbound] = useState<MailInbound>(kept?.inbound ?? 'smtp');
  const [ownSmtp, setOwnSmtp] = useState(kept?.smtp !== null && kept?.smtp !== undefined);
  const error = save.error;
  const passwordHint = (hint: string | null | undefined, what: string) =>
    hint ? `Stored encrypted (${hint}); leave empty to keep it.` : `${what} Stored encrypted and never shown again.`;

  return (
    <ApiForm
      className="form form-wide"
      onSubmit={(form) => {
        const config: MailConfigInput = {
          address: form.text('address').trim(),
          ...(form.text('name').trim() === '' ? {} : { name: form.text('name').trim() }),
          inbound,
          ...(inbound === 'imap'
            ? {
                imap: {
                  host: form.text('imapHost').trim(),
                  ...portOf(form, 'imapPort'),
                  secure: form.text('imapSecure') !== 'starttls',
                  user: form.text('imapUser').trim(),
                  ...(optional('password', form.text('imapPassword')) as { password: string }),
                  ...optional('mailbox', form.text('imapMailbox')),
                },
              }
            : {}),
          ...(ownSmtp
            ? {
                smtp: {
                  host: form.text('smtpHost').trim(),
                  ...portOf(form, 'smtpPort'),
                  ...secureOf(form.text('smtpSecure')),
                  ...optional('user', form.text('smtpUser')),
                  ...optional('password', form.text('smtpPassword')),
                },
              }
            : {}),
          aiReplies: form.checked('aiReplies'),
        };
        if (connection === undefined) create.mutate({ channel: 'mail', config }, { onSuccess: close });
        // On an edit, a part switched off is dropped on the server (null), not kept as it was.
        else
          update.mutate(
            { config: { ...config, ...(inbound === 'imap' ? {} : { imap: null }), ...(ownSmtp ? {} : { smtp: null }) } },
            { onSuccess: close },
          );
      }}
    >
      <FormAlert error={error} fields={FIELDS} />
      <Field label="Address" error={fieldError(error, 'config.address')} hint="The address people write to, e.g. support@example.com.">
        {(control) => <input {...control} className="input" type="email" name="address" defaultValue={kept?.address ?? ''} autoComplete="off" />}
      </Field>
      <Field label="Name (optional)" error={fieldError(error, 'config.name')} hint={`The name replies are sent under; empty: “${agentName}”.`}>
        {(control) => <input {...control} className="input" name="name" defaultValue={kept?.name ?? ''} maxLength={200} />}
      </Field>
      <ChoiceField
        legend="Incoming mail"
        name="inbound"
        value={inbound}
        options={INBOUND}
        onChange={setInbound}
        hint={INBOUND_HINTS[inbound]}
        error={fieldError(error, 'config.inbound')}
      />
      {inbound === 'imap' && (
        <fieldset className="fieldset form-group">
          <legend>Mailbox (IMAP)</legend>
          <div className="form-row">
            <Field label="Host" error={fieldError(error, 'config.imap.host')}>
              {(control) => <input {...control} className="input mono" name="imapHost" defaultValue={kept?.imap?.host ?? ''} spellCheck={false} />}
            </Field>
            <Field label="Port" error={fieldError(error, 'config.imap.port')} hint="Empty: 993 with TLS, 143 without.">
              {(control) => (
                <input {...control} className="input" type="number" name="imapPort" min={1} max={65535} defaultValue={kept?.imap?.port ?? ''} />
              )}
            </Field>
          </div>
          <Field label="Encryption" error={fieldError(error, 'config.imap.secure')}>
            {(control) => (
              <select {...control} className="input" name="imapSecure" defaultValue={kept?.imap?.secure === false ? 'starttls' : 'tls'}>
                <option value="tls">TLS from the start (port 993)</option>
                <option value="starttls">STARTTLS when offered (port 143)</option>
              </select>
            )}
          </Field>
          <div className="form-row">
            <Field label="User" error={fieldError(error, 'config.imap.user')}>
              {(control) => <input {...control} className="input" name="imapUser" defaultValue={kept?.imap?.user ?? ''} autoComplete="off" />}
            </Field>
            <Field
              label="Password"
              error={fieldError(error, 'config.imap.password')}
              hint={passwordHint(kept?.imap?.passwordHint, 'The mailbox’s password.')}
            >
              {(control) => <input {...control} className="input" type="password" name="imapPassword" autoComplete="off" />}
            </Field>
          </div>
          <Field label="Folder" error={fieldError(error, 'config.imap.mailbox')} hint="Empty: INBOX.">
            {(control) => <input {...control} className="input" name="imapMailbox" defaultValue={kept?.imap?.mailbox ?? ''} placeholder="INBOX" />}
          </Field>
        </fieldset>
      )}
      <label className="check">
        <input type="checkbox" checked={ownSmtp} onChange={(event) => setOwnSmtp(event.target.checked)} aria-describedby={`${id}-smtp-hint`} />
        Send replies through your own SMTP server
      </label>
      <p className="field-hint" id={`${id}-smtp-hint`}>
        Off: replies go out through the SMTP server Parley itself is set up with (PARLEY_SMTP_URL).
      </p>
      {ownSmtp && (
        <fieldset className="fieldset form-group">
          <legend>Outgoing mail (SMTP)</legend>
          <div className="form-row">
            <Field label="Host" error={fieldError(error, 'config.smtp.host')}>
              {(control) => <input {...control} className="input mono" name="smtpHost" defaultValue={kept?.smtp?.host ?? ''} spellCheck={false} />}
            </Field>
            <Field label="Port" error={fieldError(error, 'config.smtp.port')} hint="Empty: 587.">
              {(control) => (
                <input {...control} className="input" type="number" name="smtpPort" min={1} max={65535} defaultValue={kept?.smtp?.port ?? ''} />
              )}
            </Field>
          </div>
          <Field label="Encryption" error={fieldError(error, 'config.smtp.secure')}>
            {(control) => (
              <select {...control} className="input" name="smtpSecure" defaultValue={secureValue(kept?.smtp?.secure)}>
                <option value="">By the port (465: TLS, else STARTTLS)</option>
                <option value="tls">TLS from the start</option>
                <option value="starttls">STARTTLS when offered</option>
              </select>
            )}
          </Field>
          <div className="form-row">
            <Field label="User (optional)" error={fieldError(error, 'config.smtp.user')}>
              {(control) => <input {...control} className="input" name="smtpUser" defaultValue={kept?.smtp?.user ?? ''} autoComplete="off" />}
            </Field>
            <Field label="Password (optional)" error={fieldError(error, 'config.smtp.password')} hint={passwordHint(kept?.smtp?.passwordHint, '')}>
              {(control) => <input {...control} className="input" type="password" name="smtpPassword" autoComplete="off" />}
            </Field>
          </div>
        </fieldset>
      )}
      <label className="check">
        <input type="checkbox" name="aiReplies" defaultChecked={kept?.aiReplies ?? false} aria-describedby={`${id}-ai-hint`} />
        Let the agent answer e-mail by itself
      </label>
      <p className="field-hint" id={`${id}-ai-hint`}>
        Off: mail waits in the inbox for a person of your team to answer. On: the agent replies to every e-mail at once, as it does on the website —
        only turn it on once you trust its answers.
      </p>
      <SubmitActions
        pending={save.isPending}
        label={connection === undefined ? 'Connect e-mail' : 'Save'}
        pendingLabel={connection === undefined ? 'Connecting…' : 'Saving…'}
      />
    </ApiForm>
  );
}
