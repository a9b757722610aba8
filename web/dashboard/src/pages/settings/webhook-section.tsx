import { Link, useParams } from 'wouter';
import { DateTime } from '../../components/date-time';
import { ErrorState, LoadingState, QueryView } from '../../components/query-status';
import { SuccessNotice } from '../../components/success-notice';
import { submitsTo } from '../../components/submits-to';
import { useDeliveries, useReplayDelivery, useUpdateWebhook, useWebhook, type Delivery, type Webhook } from '../../queries/webhooks';
import { useCanAdminister } from '../../session/session';
import { AdminsOnly, SectionHeader } from './section-header';
import { WebhookForm } from './webhook-form';
import { counted } from '../../components/counted';
import { lastDeliveries } from './failed-deliveries';

const STATUS = {
  pending: { label: 'Retrying', tone: 'badge-waiting' },
  succeeded: { label: 'Delivered', tone: 'badge-ok' },
  failed: { label: 'Failed', tone: 'badge-error' },
} as const;

/** The body as sent, indented for reading (as is when it is not JSON). */
function readableJson(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** One endpoint (`/settings/webhooks/{id}`): its settings and its latest deliveries with every attempt. */
export function WebhookSection() {
  const { id } = useParams<{ id: string }>();
  const canAdminister = useCanAdminister();
  const webhook = useWebhook(id, { enabled: canAdminister });
  if (!canAdminister) return <AdminsOnly what="webhooks" />;
  if (webhook.isPending) return <LoadingState label="Loading the endpoint…" />;
  if (webhook.isError) return <ErrorState error={webhook.error} retry={() => void webhook.refetch()} />;
  return <WebhookView webhook={webhook.data} />;
}

function WebhookView({ webhook }: { webhook: Webhook }) {
  const update = useUpdateWebhook(webhook.id);
  return (
    <div className="stack">
      <Link href="/settings/webhooks" className="back-link">
        <span aria-hidden="true">← </span>Webhooks
      </Link>
      <SectionHeader title={webhook.url} description={<EndpointState webhook={webhook} />} />
      <Deliveries webhookId={webhook.id} />
      <details className="panel">
        <summary>Endpoint settings</summary>
        <SuccessNotice shown={update.isSuccess} />
        <WebhookForm webhook={webhook} submitLabel="Save changes" {...submitsTo(update)} />
      </details>
    </div>
  );
}

/**
 * What the endpoint's latest deliveries say about it: receiving events, or failing since its last success
 * (a delivery still being retried has failed so far; one not yet tried says nothing).
 */
function EndpointState({ webhook }: { webhook: Webhook }) {
  const deliveries = useDeliveries(webhook.id);
  if (!webhook.enabled) return 'Switched off: receives no new events.';
  const tried = (deliveries.data ?? []).filter((delivery) => delivery.attemptCount > 0);
  const succeeded = tried.findIndex((delivery) => delivery.status === 'succeeded');
  const failed = succeeded === -1 ? tried.length : succeeded;
  const latest = tried[0];
  if (failed === 0 || latest === undefined) return 'Receiving events.';
  const failedAt = latest.attempts.at(-1)?.startedAt ?? latest.createdAt;
  const error = latest.lastError ?? (latest.lastStatusCode === null ? null : `HTTP ${latest.lastStatusCode}`);
  return (
    <span className="endpoint-failing">
      Failing: {lastDeliveries(failed)} failed, the latest <DateTime iso={failedAt} relative />
      {error !== null && `: ${error}`}.
    </span>
  );
}

function Deliveries({ webhookId }: { webhookId: string }) {
  const deliveries = useDeliveries(webhookId);
  const replay = useReplayDelivery(webhookId);
  return (
    <section className="stack" aria-labelledby="deliveries-heading">
      <h3 id="deliveries-heading">Deliveries</h3>
      {replay.isError && (
        <div className="alert alert-error" role="alert">
          Replay failed: {replay.error.message}
        </div>
      )}
      <QueryView
        query={deliveries}
        loading="Loading deliveries…"
        empty={<p className="muted">No deliveries yet: they appear here when a subscribed event happens.</p>}
      >
        {(data) => (
          <ul className="delivery-list">
            {data.map((delivery) => (
              <DeliveryItem
                key={delivery.id}
                delivery={delivery}
                onReplay={() => replay.mutate(delivery.id)}
                replaying={replay.isPending && replay.variables === delivery.id}
              />
            ))}
          </ul>
        )}
      </QueryView>
    </section>
  );
}

function DeliveryItem({ delivery, onReplay, replaying }: { delivery: Delivery; onReplay: () => void; replaying: boolean }) {
  const status = STATUS[delivery.status];
  return (
    <li className="delivery">
      <div className="delivery-head">
        <span className={`badge ${status.tone}`}>{status.label}</span>
        <code>{delivery.eventType}</code>
        <span className="muted small">
          <DateTime iso={delivery.createdAt} /> · {counted(delivery.attemptCount, 'attempt')}
          {delivery.lastStatusCode !== null && ` · HTTP ${delivery.lastStatusCode}`}
          {delivery.replayOf !== null && ' · replay'}
        </span>
        <button type="button" className="button button-small" onClick={onReplay} disabled={replaying} aria-label={`Replay delivery ${delivery.id}`}>
          {replaying ? 'Replaying…' : 'Replay'}
        </button>
      </div>
      {delivery.lastError !== null && <p className="row-error">{delivery.lastError}</p>}
      {delivery.nextAttemptAt !== null && delivery.status === 'pending' && (
        <p className="muted small">
          Next attempt <DateTime iso={delivery.nextAttemptAt} relative />
        </p>
      )}
      <details>
        <summary>Attempts and body</summary>
        {delivery.attempts.length > 0 && (
          <div className="table-wrap">
            <table className="table table-compact">
              <caption className="visually-hidden">Attempts</caption>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Started</th>
                  <th scope="col">Took</th>
                  <th scope="col">Answer</th>
                </tr>
              </thead>
              <tbody>
                {delivery.attempts.map((attempt) => (
                  <tr key={attempt.attempt}>
                    <td>{attempt.attempt}</td>
                    <td>
                      <DateTime iso={attempt.startedAt} />
                    </td>
                    <td>{attempt.durationMs} ms</td>
                    <td>
                      {attempt.statusCode !== null && <span className="mono">HTTP {attempt.statusCode} </span>}
                      {attempt.error !== null && <span className="row-error">{attempt.error}</span>}
                      {attempt.responseExcerpt !== null && attempt.responseExcerpt !== '' && <pre className="code">{attempt.responseExcerpt}</pre>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <pre className="code">{readableJson(delivery.body)}</pre>
      </details>
    </li>
  );
}
