import { useId } from 'react';
import { fieldError } from '../../api';
import { Field } from '../../components/field';
import { readForm } from '../../components/form-data';
import { FormAlert } from '../../components/form-alert';
import { EVENT_TYPES, type Webhook, type WebhookInput } from '../../queries/webhooks';

const EVENT_ABOUT: Record<(typeof EVENT_TYPES)[number], string> = {
  'conversation-resolved': 'a conversation is marked resolved',
  'human-requested': 'a visitor asks for a person',
  'conversation.created': 'a conversation starts',
  'message.created': 'anyone writes in a conversation',
  'datasource.synched': 'a document is indexed',
  'datasource.error': 'a document failed to index',
};

interface WebhookFormProps {
  webhook?: Webhook;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (input: WebhookInput) => void;
}

/** An endpoint's address, description and the events it receives. */
export function WebhookForm({ webhook, submitLabel, pending, error, onSubmit }: WebhookFormProps) {
  const id = useId();
  const eventsError = fieldError(error, 'events');
  const chosen = new Set(webhook?.events ?? ['conversation-resolved', 'human-requested']);
  return (
    <form
      className="form"
      noValidate
      onSubmit={(event) => {
        const form = readForm(event);
        onSubmit({ url: form.text('url').trim(), description: form.text('description'), events: form.all('events') });
      }}
    >
      <FormAlert error={error} fields={['url', 'description', 'events']} />
      <Field label="Endpoint URL" error={fieldError(error, 'url')} hint="Receives a signed POST per event.">
        {(control) => <input {...control} className="input" type="url" name="url" defaultValue={webhook?.url ?? ''} placeholder="https://example.com/parley-events" required />}
      </Field>
      <Field label="Description" error={fieldError(error, 'description')}>
        {(control) => <input {...control} className="input" name="description" defaultValue={webhook?.description ?? ''} maxLength={500} />}
      </Field>
      <fieldset className="fieldset" aria-describedby={eventsError === undefined ? undefined : `${id}-events-error`}>
        <legend>Events</legend>
        <ul className="checkbox-list">
          {EVENT_TYPES.map((type) => (
            <li key={type}>
              <label className="check">
                <input type="checkbox" name="events" value={type} defaultChecked={chosen.has(type)} />
                <span>
                  <code>{type}</code> <span className="muted">— {EVENT_ABOUT[type]}</span>
                </span>
              </label>
            </li>
          ))}
        </ul>
        {eventsError !== undefined && (
          <div className="field-error" id={`${id}-events-error`}>
            {eventsError}
          </div>
        )}
      </fieldset>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? 'Saving…' : submitLabel}
        </button>
      </div>
    </form>
  );
}
