import { createHmac } from 'node:crypto';

/**
 * The `Parley-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed with the
 * endpoint's secret>`. The time is signed too, so a receiver can refuse old deliveries replayed by
 * someone who captured one.
 */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const digest = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${digest}`;
}
