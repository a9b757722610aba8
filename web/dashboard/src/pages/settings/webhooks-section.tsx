import * as Switch from '@radix-ui/react-switch';
import { Link } from 'wouter';
import { ConfirmDialog, rowDangerButton } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { ModalDialog } from '../../components/modal-dialog';
import { QueryView } from '../../components/query-status';
import { SecretOnce } from '../../components/secret-once';
import { submitsTo } from '../../components/submits-to';
import { DoneAction } from '../../components/form-actions';
import { useCreateWebhook, useDeleteWebhook, useUpdateWebhook, useWebhooks, type Webhook } from '../../queries/webhooks';
import { lastDeliveries } from './failed-deliveries';
import { useCanAdminister } from '../../session/session';
import { AdminsOnly, SectionHeader } from './section-header';
import { WebhookForm } from './webhook-form';

function NewWebhookForm({ close }: { close: () => void }) {
  const create = useCreateWebhook();
  if (create.data !== undefined) {
    return (
      <div className="stack">
        <SecretOnce
          label="Signing secret"
          secret={create.data.secret}
          note="Verify the Parley-Signature header of each delivery with it. It is shown only this once."
        />
        <DoneAction close={close} />
      </div>
    );
  }
  return <WebhookForm submitLabel="Create endpoint" {...submitsTo(create)} />;
}

function EnabledSwitch({ webhook }: { webhook: Webhook }) {
  const update = useUpdateWebhook(webhook.id);
  const checked = update.isPending ? update.variables.enabled === true : webhook.enabled;
  return (
    <span className="switch-field">
      <Switch.Root
        className="switch"
        checked={checked}
        onCheckedChange={(enabled) => update.mutate({ enabled })}
        aria-label={`Send events to ${webhook.url}`}
      >
        <Switch.Thumb className="switch-thumb" />
      </Switch.Root>
      <span aria-hidden="true">{checked ? 'On' : 'Off'}</span>
      {update.isError && (
        <span className="field-error" role="alert">
          {update.error.message}
        </span>
      )}
    </span>
  );
}

/** Endpoints that receive the workspace's events as signed POSTs. */
export function WebhooksSection() {
  const canAdminister = useCanAdminister();
  const webhooks = useWebhooks({ enabled: canAdminister });
  const remove = useDeleteWebhook();
  const newButton = (
    <ModalDialog
      title="New webhook endpoint"
      wide
      trigger={
        <button type="button" className="button button-primary">
          New endpoint
        </button>
      }
    >
      {(close) => <NewWebhookForm close={close} />}
    </ModalDialog>
  );
  if (!canAdminister) {
    return (
      <section className="stack">
        <SectionHeader title="Webhooks" />
        <AdminsOnly what="webhooks" />
      </section>
    );
  }
  return (
    <section className="stack">
      <SectionHeader
        title="Webhooks"
        description="Parley POSTs each event to these addresses, signed, and retries until they answer 2xx."
        action={webhooks.data?.length ? newButton : undefined}
      />
      <QueryView
        query={webhooks}
        loading="Loading webhooks…"
        empty={
          <EmptyState title="No webhook endpoints yet" action={newButton}>
            Add one to hear about resolved conversations, requests for a person or indexed documents in your own systems.
          </EmptyState>
        }
      >
        {(data) => (
          <ul className="card-list card-list-single">
            {data.map((webhook) => (
              <li key={webhook.id} className="card">
                <div className="card-row">
                  <h3 className="card-title mono break">
                    <Link href={`/settings/webhooks/${encodeURIComponent(webhook.id)}`}>{webhook.url}</Link>
                  </h3>
                  <EnabledSwitch webhook={webhook} />
                </div>
                {webhook.enabled && webhook.consecutiveFailures > 0 && (
                  <p className="card-text endpoint-failing">
                    <span className="badge badge-error">
                      Failing<span className="visually-hidden">:</span>
                    </span>{' '}
                    {lastDeliveries(webhook.consecutiveFailures)} failed
                  </p>
                )}
                {webhook.source === 'automation' && (
                  <p className="card-text">
                    <span className="badge badge-neutral">Zapier / automation</span> Subscribed by a Zap; removed when it is turned off.
                  </p>
                )}
                {webhook.description !== '' && <p className="card-text">{webhook.description}</p>}
                <ul className="tag-list" aria-label="Events">
                  {webhook.events.map((type) => (
                    <li key={type} className="tag">
                      {type}
                    </li>
                  ))}
                </ul>
                <div className="card-actions">
                  <Link href={`/settings/webhooks/${encodeURIComponent(webhook.id)}`} className="button button-small">
                    Deliveries and settings
                  </Link>
                  <ConfirmDialog
                    trigger={rowDangerButton('Delete', `Delete the endpoint ${webhook.url}`)}
                    title={`Delete the endpoint ${webhook.url}?`}
                    description="It receives no more events, and its delivery log goes with it."
                    confirmLabel="Delete endpoint"
                    onConfirm={() => remove.mutateAsync(webhook.id)}
                  />
                </div>
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </section>
  );
}
