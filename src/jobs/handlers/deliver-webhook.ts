import { UndeliverableError, type AttemptResult } from '../../events/attempt-result.js';
import { sendWebhook, type WebhookSenderOptions } from '../../events/webhook-sender.js';
import type { DeliveryRecord, Store } from '../../store/store.js';
import { DeliveryHandler } from './delivery-handler.js';

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
    return sendWebhook(endpoint, delivery, this.options, signal);
  }
}
