import { createHmac, timingSafeEqual } from 'node:crypto';
import { UnverifiedDeliveryError, headerOf, type InboundDelivery } from '../connector.js';

const SIGNATURE_HEADER = 'x-hub-signature-256';
const SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

/**
 * Meta's signature of a webhook delivery: `X-Hub-Signature-256: sha256=<hex>`, the HMAC-SHA256 of the raw body
 * keyed with the app secret. Checked before the body is parsed; compared in constant time. The signature carries
 * no time, so a replayed delivery verifies: the domain stores a message id once, and a receipt never goes back.
 */
export function verifyWhatsAppSignature(delivery: InboundDelivery, appSecret: string): void {
  const given = SIGNATURE.exec(headerOf(delivery, SIGNATURE_HEADER) ?? '')?.[1];
  if (given === undefined || appSecret.length === 0) throw new UnverifiedDeliveryError();
  const expected = createHmac('sha256', appSecret).update(delivery.body).digest();
  if (!timingSafeEqual(Buffer.from(given, 'hex'), expected)) throw new UnverifiedDeliveryError();
}
