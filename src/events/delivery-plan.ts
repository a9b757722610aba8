import { createHash, randomUUID } from 'node:crypto';
import type { DeliveryChannel, NewDelivery, NewJob } from '../store/store.js';
import type { Recipient } from './notification-email.js';

export const DELIVER_WEBHOOK_JOB = 'deliver-webhook';
export const SEND_EMAIL_JOB = 'send-email';
/** Sends one message of a conversation out through its channel connection (an e-mail reply, a Telegram message). */
export const SEND_CHANNEL_MESSAGE_JOB = 'send-channel-message';

export interface ChannelMessageJobPayload {
  connectionId: string;
  conversationId: string;
  messageId: string;
}

/** The job that sends message `messageId` through `connectionId`: one per message, however often it is planned. */
export const channelMessageJob = (workspaceId: string, payload: ChannelMessageJobPayload, maxAttempts: number): NewJob => ({
  id: `job_send_${payload.messageId}`,
  kind: SEND_CHANNEL_MESSAGE_JOB,
  workspaceId,
  payload: { ...payload },
  maxAttempts,
});

/** What the sending job needs besides the delivery itself. */
export interface DeliveryJobPayload {
  deliveryId: string;
  /** E-mail deliveries: whom the message is written for. */
  recipient?: Recipient;
}

/**
 * The id of an event's delivery to one destination, the same however often the event is handed on:
 * the store refuses the second insert, so each event reaches each destination once.
 */
export const deliveryIdFor = (eventId: string, destination: string): string =>
  `dlv_${createHash('sha256').update(`${eventId}\n${destination}`).digest('hex').slice(0, 26)}`;

/** A replay is a delivery of its own, with a fresh id, so the log keeps both. */
export const replayDeliveryId = (): string => `dlv_${randomUUID().replaceAll('-', '').slice(0, 26)}`;

/** The job that sends `delivery` through its channel. */
export function deliveryJob(delivery: NewDelivery, maxAttempts: number, recipient?: Recipient): NewJob {
  const kind: Record<DeliveryChannel, string> = { webhook: DELIVER_WEBHOOK_JOB, email: SEND_EMAIL_JOB };
  const payload: DeliveryJobPayload = recipient === undefined ? { deliveryId: delivery.id } : { deliveryId: delivery.id, recipient };
  return {
    id: `job_${delivery.id}`,
    kind: kind[delivery.channel],
    workspaceId: delivery.workspaceId,
    payload: { ...payload },
    maxAttempts,
  };
}
