import { UndeliverableError, type AttemptResult } from './attempt-result.js';
import type { DeliveryJobPayload } from './delivery-plan.js';
import { isNotifyingEnvelope, type EventEnvelope } from '../contract/events.js';
import type { Mailer } from './mailer.js';
import { renderNotificationEmail } from './notification-email.js';
import { BlockedUrlError } from '../net/address-policy.js';
import type { DeliveryRecord, Store } from '../store/store.js';
import { DeliveryHandler } from './delivery-handler.js';

/** SMTP replies 5xx for what will not change on retry (no such mailbox, refused sender). */
const isPermanentSmtpFailure = (code: unknown) => typeof code === 'number' && code >= 500 && code < 600;

/** Renders a notification e-mail from the delivered event and sends it to the delivery's recipients. */
export class SendNotificationEmailHandler extends DeliveryHandler {
  constructor(
    store: Store,
    private readonly mailer: Mailer | null,
    /** Where people reach Parley, for the link to the conversation in the dashboard (read for each e-mail). */
    private readonly publicUrl: () => string,
  ) {
    super(store);
  }

  protected async attempt(delivery: DeliveryRecord, payload: DeliveryJobPayload): Promise<AttemptResult> {
    if (this.mailer === null) throw new UndeliverableError('E-mail is not configured (PARLEY_SMTP_URL is not set)');
    const envelope = JSON.parse(delivery.body) as EventEnvelope;
    if (!isNotifyingEnvelope(envelope)) throw new UndeliverableError(`${envelope.type} events are not sent by e-mail`);
    const event = envelope.data;
    const email = renderNotificationEmail({
      type: envelope.type,
      payload: event,
      recipient: payload.recipient ?? 'admins',
      conversationUrl: `${this.publicUrl()}/dashboard/conversations/${encodeURIComponent(event.conversationId)}`,
    });
    try {
      await this.mailer.send(delivery.recipients ?? [], email);
      return { ok: true, statusCode: 250, error: null, responseExcerpt: null };
    } catch (error) {
      const code = (error as { responseCode?: unknown }).responseCode;
      const message = error instanceof Error ? error.message : String(error);
      if (isPermanentSmtpFailure(code) || error instanceof BlockedUrlError) throw new UndeliverableError(message);
      return { ok: false, statusCode: typeof code === 'number' ? code : null, error: message, responseExcerpt: null };
    }
  }
}
