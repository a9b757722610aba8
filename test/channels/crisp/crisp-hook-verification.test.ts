import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { UnverifiedDeliveryError } from '../../../src/channels/connector.js';
import { CRISP_HOOK_WINDOW_MS, CrispHookVerifier, crispHookSignature } from '../../../src/channels/crisp/crisp-hook-verification.js';

const URL_KEY = 'hook-key_0123456789abcdefghijklmnop';
const SIGNING_SECRET = 'plugin-signing-secret-42';
const NOW = 1_764_420_000_000;
const BODY = '{"website_id":"w1","event":"message:send","data":{"type":"text","content":"Hé, ça va ?"},"timestamp":1764420000000}';

const verifier = () => new CrispHookVerifier(() => NOW);
const delivery = (headers: Record<string, string>, body = BODY, key: string | null = URL_KEY) => ({
  headers,
  body: Buffer.from(body, 'utf8'),
  ...(key === null ? {} : { query: { key } }),
});
const signed = (timestamp: number | string, body = BODY, secret = SIGNING_SECRET) => ({
  'x-crisp-request-timestamp': String(timestamp),
  'x-crisp-signature': crispHookSignature(secret, String(timestamp), body),
});
const refused = (run: () => void) => expect(run).toThrow(UnverifiedDeliveryError);

describe('Crisp’s hook signature, as its Web Hooks reference (V1) documents it', () => {
  it('is the hex HMAC-SHA256, with the signing secret, of [timestamp;body], the brackets and semicolon included', () => {
    const expected = createHmac('sha256', SIGNING_SECRET).update(`[${NOW};${BODY}]`).digest('hex');
    expect(crispHookSignature(SIGNING_SECRET, String(NOW), BODY)).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });

  it('accepts a Plugin Hook with the URL key and a fresh, matching signature', () => {
    expect(() => verifier().verify(delivery(signed(NOW)), { urlKey: URL_KEY, signingSecret: SIGNING_SECRET })).not.toThrow();
    // A timestamp in seconds is read as such; the window holds either way.
    expect(() => verifier().verify(delivery(signed(NOW / 1000 - 60)), { urlKey: URL_KEY, signingSecret: SIGNING_SECRET })).not.toThrow();
  });

  it('accepts a body whose JSON is spelt otherwise than JSON.stringify’s when the signature is over JSON.stringify’s spelling', () => {
    const spaced = '{ "website_id": "w1", "event": "message:send" }';
    const headers = signed(NOW, JSON.stringify(JSON.parse(spaced)));
    expect(() => verifier().verify(delivery(headers, spaced), { urlKey: URL_KEY, signingSecret: SIGNING_SECRET })).not.toThrow();
  });

  it('refuses a missing signature or timestamp, another secret’s signature, a changed body', () => {
    const secrets = { urlKey: URL_KEY, signingSecret: SIGNING_SECRET };
    refused(() => verifier().verify(delivery({}), secrets));
    refused(() => verifier().verify(delivery({ 'x-crisp-signature': signed(NOW)['x-crisp-signature'] }), secrets));
    refused(() => verifier().verify(delivery({ 'x-crisp-request-timestamp': String(NOW) }), secrets));
    refused(() => verifier().verify(delivery(signed(NOW, BODY, 'another-secret')), secrets));
    refused(() => verifier().verify(delivery(signed(NOW), BODY.replace('ça va', 'ca va')), secrets));
    refused(() => verifier().verify(delivery({ ...signed(NOW), 'x-crisp-request-timestamp': String(NOW + 1) }), secrets));
    refused(() => verifier().verify(delivery({ ...signed(NOW), 'x-crisp-request-timestamp': 'yesterday' }), secrets));
  });

  it('refuses an expired timestamp, one from the future, and the same signed delivery a second time', () => {
    const secrets = { urlKey: URL_KEY, signingSecret: SIGNING_SECRET };
    refused(() => verifier().verify(delivery(signed(NOW - CRISP_HOOK_WINDOW_MS - 1_000)), secrets));
    refused(() => verifier().verify(delivery(signed(NOW + CRISP_HOOK_WINDOW_MS + 1_000)), secrets));
    const once = verifier();
    once.verify(delivery(signed(NOW - 1_000)), secrets);
    refused(() => once.verify(delivery(signed(NOW - 1_000)), secrets));
    expect(() => once.verify(delivery(signed(NOW - 500)), secrets)).not.toThrow();
  });

  it('refuses a delivery without the URL’s key or with another, signed or not (Website Hooks are not signed)', () => {
    for (const signingSecret of [undefined, SIGNING_SECRET]) {
      refused(() => verifier().verify(delivery(signed(NOW), BODY, null), { urlKey: URL_KEY, signingSecret }));
      refused(() => verifier().verify(delivery(signed(NOW), BODY, 'wrong'), { urlKey: URL_KEY, signingSecret }));
    }
    expect(() => verifier().verify(delivery({}), { urlKey: URL_KEY, signingSecret: undefined })).not.toThrow();
  });
});
