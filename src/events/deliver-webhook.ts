import { UndeliverableError, type AttemptResult } from './attempt-result.js';
import { sendWebhook, type WebhookSenderOptions } from './webhook-sender.js';
import type { DeliveryRecord, Store } from '../store/store.js';
import { DeliveryHandler } from './delivery-handler.js';

/** What a REST hook target answers when its subscription ended on its side (Zapier: the Zap was turned off). */
const GONE = 410;

/** POSTs a delivery, signed, to its webhook endpoint as the endpoint is configured now. */
export class DeliverWebhookHandler extends DeliveryHandler {
  constructor(
    store: Store,
    private readonly options: WebhookSenderOptions,
  ) {
    super(store);
  }

  protected async attempt(delivery: DeliveryRecord, _payload: unknown, signal: AbortSignal): Promise<AttemptResult> {
    const endpoint = delivery.endpointId === null ? undefined : await this.store.webhooks.find(delivery.workspaceId, delivery.endpointId);
    if (endpoint === undefined) throw new UndeliverableError('The webhook endpoint no longer exists');
    const result = await sendWebhook(endpoint, delivery, this.options, signal);
    // REST hooks: 410 Gone unsubscribes. The subscription goes with its log and pending deliveries.
    if (endpoint.source === 'automation' && result.statusCode === GONE) {
      await this.store.webhooks.delete(endpoint.workspaceId, endpoint.id);
      throw new UndeliverableError('The target answered 410 Gone: its subscription was removed');
    }
    return result;
  }
}
