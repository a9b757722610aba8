import { createHmac, timingSafeEqual } from 'node:crypto';
import { UnverifiedDeliveryError, headerOf, type InboundDelivery } from '../connector.js';

/** How old (or how far ahead) a request's timestamp may be: Slack's own advice, against replays of a captured request. */
export const SLACK_SIGNATURE_WINDOW_SECONDS = 5 * 60;

const VERSION = 'v0';
const SIGNATURE = /^v0=([0-9a-f]{64})$/;
const TIMESTAMP = /^\d{1,12}$/;

/**
 * Slack's request signature (its "Verifying requests from Slack"): `v0=` and the hex HMAC-SHA256, keyed with
 * the app's signing secret, of `v0:<X-Slack-Request-Timestamp>:<raw body>`.
 */
export function slackSignature(signingSecret: string, timestamp: string, body: Buffer | string): string {
  const hmac = createHmac('sha256', signingSecret);
  hmac.update(`${VERSION}:${timestamp}:`, 'utf8');
  hmac.update(body);
  return `${VERSION}=${hmac.digest('hex')}`;
}

/**
 * Refuses, before anything of the body is read, a request not signed with `signingSecret`, signed without a
 * timestamp, or whose timestamp is outside the window around `nowMs` (a replay). The timestamp is part of
 * what is signed, so a captured request cannot be given a fresh one.
 */
export function verifySlackRequest(delivery: InboundDelivery, signingSecret: string, nowMs = Date.now()): void {
  const timestamp = headerOf(delivery, 'x-slack-request-timestamp');
  const signature = SIGNATURE.exec(headerOf(delivery, 'x-slack-signature') ?? '')?.[1];
  if (signingSecret.length === 0 || timestamp === undefined || signature === undefined || !TIMESTAMP.test(timestamp)) {
    throw new UnverifiedDeliveryError('The request is not signed as Slack signs its requests');
  }
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > SLACK_SIGNATURE_WINDOW_SECONDS) {
    throw new UnverifiedDeliveryError('The request’s signature is too old (or from the future): it may be a replay');
  }
  const expected = Buffer.from(slackSignature(signingSecret, timestamp, delivery.body).slice(VERSION.length + 1), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) {
    throw new UnverifiedDeliveryError('The request is not signed with this connection’s signing secret');
  }
}
