import { BlockedUrlError, type OutboundPolicy } from '../net/address-policy.js';
import { guardedRequest } from '../net/guarded-request.js';
import type { DeliveryRecord, WebhookEndpointRecord } from '../store/store.js';
import { UndeliverableError, type AttemptResult } from './attempt-result.js';
import { signatureHeader } from './webhook-signature.js';

export interface WebhookSenderOptions {
  /** Where deliveries may go (PARLEY_OUTBOUND_ALLOW). */
  policy: OutboundPolicy;
  /** The whole exchange; a slow receiver gets this long and is then counted as failed. */
  timeoutMs: number;
}

/** Enough of a receiver's answer to show what it said, not a whole error page. */
const EXCERPT_BYTES = 1024;

async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of body) {
    parts.push(part);
    size += part.length;
    if (size >= EXCERPT_BYTES) break;
  }
  body.destroy();
  return Buffer.concat(parts).subarray(0, EXCERPT_BYTES).toString('utf8');
}

const describe = (error: unknown, timeoutMs: number, signal: AbortSignal): string => {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'AbortError' || error.name === 'TimeoutError') {
    return signal.aborted ? 'Stopped before the receiver answered' : `The receiver did not answer in time (${timeoutMs} ms)`;
  }
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
};

/**
 * One signed POST of a delivery to its endpoint. 2xx counts as received; redirects are not followed
 * (a moved endpoint should be updated, not chased), so 3xx fails like any other status.
 */
export async function sendWebhook(
  endpoint: WebhookEndpointRecord,
  delivery: DeliveryRecord,
  options: WebhookSenderOptions,
  signal: AbortSignal,
): Promise<AttemptResult> {
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Parley-Webhooks/1',
    'parley-event': delivery.eventType,
    'parley-delivery': delivery.id,
    'parley-signature': signatureHeader(endpoint.secret, delivery.body, Math.floor(Date.now() / 1000)),
  };
  try {
    const response = await guardedRequest(endpoint.url, {
      method: 'POST',
      headers,
      body: delivery.body,
      policy: options.policy,
      timeoutMs: options.timeoutMs,
      maxRedirects: 0,
      signal,
    });
    const responseExcerpt = await readExcerpt(response.body).catch(() => null);
    const ok = response.status >= 200 && response.status < 300;
    return { ok, statusCode: response.status, error: ok ? null : `The receiver answered ${response.status}`, responseExcerpt };
  } catch (error) {
    if (error instanceof BlockedUrlError) throw new UndeliverableError(error.message);
    return { ok: false, statusCode: null, error: describe(error, options.timeoutMs, signal), responseExcerpt: null };
  }
}
