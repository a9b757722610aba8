import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { UnverifiedDeliveryError } from '../../../src/channels/connector.js';
import { slackSignature, verifySlackRequest } from '../../../src/channels/slack/slack-signature.js';

// The worked example of Slack's "Verifying requests from Slack": a slash command's body, its secret, timestamp and signature.
const DOC_SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const DOC_TIMESTAMP = '1531420618';
const DOC_BODY =
  'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
const DOC_SIGNATURE = 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503';
const DOC_NOW = Number(DOC_TIMESTAMP) * 1000;

const delivery = (headers: Record<string, string>, body = DOC_BODY) => ({ headers, body: Buffer.from(body, 'utf8') });
const signed = (signature = DOC_SIGNATURE, timestamp = DOC_TIMESTAMP) => ({ 'x-slack-signature': signature, 'x-slack-request-timestamp': timestamp });

describe('Slack request signatures', () => {
  it('computes the signature of Slack’s worked example', () => {
    expect(slackSignature(DOC_SECRET, DOC_TIMESTAMP, DOC_BODY)).toBe(DOC_SIGNATURE);
    expect(slackSignature(DOC_SECRET, DOC_TIMESTAMP, Buffer.from(DOC_BODY))).toBe(DOC_SIGNATURE);
  });

  it('accepts Slack’s worked example within five minutes of its timestamp, either way', () => {
    for (const skew of [0, 299_000, -299_000]) {
      expect(() => verifySlackRequest(delivery(signed()), DOC_SECRET, DOC_NOW + skew)).not.toThrow();
    }
  });

  it('checks the raw bytes: a body re-encoded differently is refused', () => {
    const body = '{"type":"event_callback","event":{"text":"café"}}';
    const timestamp = String(Math.floor(DOC_NOW / 1000));
    const signature = `v0=${createHmac('sha256', DOC_SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`;
    expect(() => verifySlackRequest(delivery(signed(signature, timestamp), body), DOC_SECRET, DOC_NOW)).not.toThrow();
    const latin1 = { headers: signed(signature, timestamp), body: Buffer.from(body, 'latin1') };
    expect(() => verifySlackRequest(latin1, DOC_SECRET, DOC_NOW)).toThrow(UnverifiedDeliveryError);
  });

  it.each([
    ['no signature', { 'x-slack-request-timestamp': DOC_TIMESTAMP }],
    ['no timestamp', { 'x-slack-signature': DOC_SIGNATURE }],
    ['another secret’s signature', signed(slackSignature('another-secret', DOC_TIMESTAMP, DOC_BODY))],
    ['a signature of another version', signed(DOC_SIGNATURE.replace('v0=', 'v1='))],
    ['a truncated signature', signed(DOC_SIGNATURE.slice(0, -2))],
    ['a timestamp that is not a number', signed(DOC_SIGNATURE, '1531420618.5')],
    ['the signature given with another timestamp (a replay made fresh)', signed(DOC_SIGNATURE, String(Number(DOC_TIMESTAMP) + 60))],
  ])('refuses %s', (_name, headers) => {
    expect(() => verifySlackRequest(delivery(headers), DOC_SECRET, DOC_NOW)).toThrow(UnverifiedDeliveryError);
  });

  it('refuses a tampered body', () => {
    expect(() => verifySlackRequest(delivery(signed(), DOC_BODY.replace('text=', 'text=hi')), DOC_SECRET, DOC_NOW)).toThrow(UnverifiedDeliveryError);
  });

  it('refuses a correctly signed request more than five minutes old or ahead (a replay)', () => {
    expect(() => verifySlackRequest(delivery(signed()), DOC_SECRET, DOC_NOW + 301_000)).toThrow(/replay/);
    expect(() => verifySlackRequest(delivery(signed()), DOC_SECRET, DOC_NOW - 301_000)).toThrow(/replay/);
  });

  it('refuses everything when the connection has no secret', () => {
    expect(() => verifySlackRequest(delivery(signed(slackSignature('', DOC_TIMESTAMP, DOC_BODY))), '', DOC_NOW)).toThrow(UnverifiedDeliveryError);
  });
});
