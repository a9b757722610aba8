import { useId } from 'react';
import { fieldError } from '../../api';
import { Field } from '../../components/field';
import { FormAlert } from '../../components/form-alert';
import { ApiForm } from '../../components/api-form';
import { SubmitActions } from '../../components/form-actions';
import { EVENT_TYPES, type EventType } from '../../../../../src/contract/events';
import type { Webhook, WebhookInput } from '../../queries/webhooks';

const EVENT_ABOUT: Record<EventType, string> = {
  'conversation-resolved': 'a conversation is marked resolved',
  'human-requested': 'a visitor asks for a person',
  'conversation.created': 'a conversation starts',
  'conversation.updated': 'a conversation’s status, agent switch or assignee changes, or a member reads it',
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
    <ApiForm
      onSubmit={(form) => {
        const checked = form.all('events');
        onSubmit({
          url: form.text('url').trim(),
          description: form.text('description'),
          events: EVENT_TYPES.filter((type) => checked.includes(type)),
        });
      }}
    >
      <FormAlert error={error} fields={['url', 'description', 'events']} />
      <Field label="Endpoint URL" error={fieldError(error, 'url')} hint="Receives a signed POST per event.">
        {(control) => (
          <input
            {...control}
            className="input"
            type="url"
            name="url"
            defaultValue={webhook?.url ?? ''}
            placeholder="https://example.com/parley-events"
            required
          />
        )}
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
      <SubmitActions pending={pending} label={submitLabel} />
    </ApiForm>
  );
}
