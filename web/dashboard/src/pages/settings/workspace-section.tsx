import { fieldError } from '../../api';
import { Field } from '../../components/field';
import { NumberField } from '../../components/number-field';
import { FormAlert } from '../../components/form-alert';
import { QueryView } from '../../components/query-status';
import { ApiForm } from '../../components/api-form';
import { SubmitActions } from '../../components/form-actions';
import { SuccessNotice } from '../../components/success-notice';
import { NOTIFYING_EVENTS, useUpdateWorkspaceSettings, useWorkspaceSettings, type RateLimits, type WorkspaceSettings } from '../../queries/workspace';
import { useCanAdminister } from '../../session/session';
import { AdminsOnly, SectionHeader } from './section-header';

const EVENT_LABELS = { 'conversation-resolved': 'A conversation is resolved', 'human-requested': 'A visitor asks for a person' } as const;

const LIMITS: ReadonlyArray<{ field: keyof RateLimits; label: string; hint: string }> = [
  { field: 'keyPerMinute', label: 'Per API key', hint: 'Requests a minute per key.' },
  { field: 'ipPerMinute', label: 'Per address, public', hint: 'Requests a minute per client address to public agents.' },
  { field: 'visitorPerMinute', label: 'Per visitor, public', hint: 'Questions a minute per visitor of a public agent.' },
];

const FIELDS = ['name', 'notifications', 'rateLimits'];

/** The workspace's name, who is e-mailed on which event, and its rate limits. */
export function WorkspaceSection() {
  const canAdminister = useCanAdminister();
  const settings = useWorkspaceSettings({ enabled: canAdminister });
  if (!canAdminister) {
    return (
      <section className="stack">
        <SectionHeader title="Workspace" />
        <AdminsOnly what="the workspace’s settings" />
      </section>
    );
  }
  return (
    <section className="stack">
      <SectionHeader title="Workspace" description="Its name, its notification e-mails and its rate limits." />
      <QueryView query={settings} loading="Loading settings…">
        {(data) => <WorkspaceForm settings={data} />}
      </QueryView>
    </section>
  );
}

function WorkspaceForm({ settings }: { settings: WorkspaceSettings }) {
  const update = useUpdateWorkspaceSettings();
  return (
    <ApiForm
      className="form form-wide"
      onSubmit={(form) => {
        const limit = (field: string) => (form.text(field).trim() === '' ? null : Number(form.text(field)));
        update.mutate({
          name: form.text('name').trim(),
          notifications: Object.fromEntries(
            NOTIFYING_EVENTS.map((type) => [type, { admins: form.checked(`${type}.admins`), customer: form.checked(`${type}.customer`) }]),
          ),
          rateLimits: Object.fromEntries(LIMITS.map(({ field }) => [field, limit(field)])),
        });
      }}
    >
      <SuccessNotice shown={update.isSuccess} />
      <FormAlert error={update.error} fields={FIELDS} />
      <div className="form-section">
        <Field label="Workspace name" error={fieldError(update.error, 'name')}>
          {(control) => <input {...control} className="input" name="name" defaultValue={settings.name} required maxLength={200} />}
        </Field>
      </div>

      <div className="form-section">
        <h3 className="form-section-title">Notification e-mails</h3>
        {!settings.emailEnabled && (
          <div className="alert alert-info" role="note">
            E-mail is off on this server (no <code>PARLEY_SMTP_URL</code>): these choices apply once it is set up.
          </div>
        )}
        <div className="table-wrap">
          <table className="table table-compact">
            <caption className="visually-hidden">Who is e-mailed on which event</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Owners and admins</th>
                <th scope="col">The customer</th>
              </tr>
            </thead>
            <tbody>
              {NOTIFYING_EVENTS.map((type) => (
                <tr key={type}>
                  <th scope="row">{EVENT_LABELS[type]}</th>
                  <td>
                    <input
                      type="checkbox"
                      name={`${type}.admins`}
                      defaultChecked={settings.notifications[type].admins}
                      aria-label={`${EVENT_LABELS[type]}: e-mail owners and admins`}
                    />
                  </td>
                  <td>
                    <input
                      type="checkbox"
                      name={`${type}.customer`}
                      defaultChecked={settings.notifications[type].customer}
                      aria-label={`${EVENT_LABELS[type]}: e-mail the customer`}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {fieldError(update.error, 'notifications') !== undefined && <div className="field-error">{fieldError(update.error, 'notifications')}</div>}
      </div>

      <div className="form-section">
        <h3 className="form-section-title">Rate limits</h3>
        <p className="field-hint">Requests a minute. Empty a field to return it to the server’s default.</p>
        <div className="form-row form-row-3">
          {LIMITS.map(({ field, label, hint }) => (
            <NumberField
              key={field}
              label={label}
              name={field}
              hint={hint}
              error={fieldError(update.error, `rateLimits.${field}`)}
              min={1}
              max={1_000_000}
              step={1}
              defaultValue={settings.rateLimits[field]}
            />
          ))}
        </div>
      </div>

      <SubmitActions pending={update.isPending} label="Save settings" />
    </ApiForm>
  );
}
