import { describe, expect, it } from 'vitest';
import { UnverifiedDeliveryError } from '../../../src/channels/connector.js';
import { verifyWhatsAppSignature } from '../../../src/channels/whatsapp/whatsapp-signature.js';
import { customerText, signWhatsAppBody, webhookEnvelope } from '../../support/fake-graph-api.js';

const SECRET = 'app-secret-for-signature-tests';
const body = JSON.stringify(webhookEnvelope(customerText('16505551234', 'Ada', 'Hello')));
const delivery = (signature: string | string[] | undefined, raw = body) => ({
  headers: signature === undefined ? {} : { 'x-hub-signature-256': signature },
  body: Buffer.from(raw),
});

/** Meta's recipe: `sha256=` + the hex HMAC-SHA256 of the raw body keyed with the app secret. */
describe('the X-Hub-Signature-256 check', () => {
  it('accepts a body signed with the app secret, the hex in either case', () => {
    expect(() => verifyWhatsAppSignature(delivery(signWhatsAppBody(body, SECRET)), SECRET)).not.toThrow();
    expect(() => verifyWhatsAppSignature(delivery(signWhatsAppBody(body, SECRET).toUpperCase().replace('SHA256=', 'sha256=')), SECRET)).not.toThrow();
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['signed with another secret', signWhatsAppBody(body, 'another-app-secret')],
    ['without the sha256= prefix', signWhatsAppBody(body, SECRET).slice('sha256='.length)],
    ['SHA-1 (the old X-Hub-Signature scheme)', `sha1=${'a'.repeat(40)}`],
    ['truncated', signWhatsAppBody(body, SECRET).slice(0, -2)],
  ])('refuses a signature %s', (_, signature) => {
    expect(() => verifyWhatsAppSignature(delivery(signature), SECRET)).toThrow(UnverifiedDeliveryError);
  });

  it('refuses a body changed after signing (one byte), and any signature when the secret is empty', () => {
    const signature = signWhatsAppBody(body, SECRET);
    expect(() => verifyWhatsAppSignature(delivery(signature, body.replace('Hello', 'Hellp')), SECRET)).toThrow(UnverifiedDeliveryError);
    expect(() => verifyWhatsAppSignature(delivery(signWhatsAppBody(body, '')), '')).toThrow(UnverifiedDeliveryError);
  });

  it('signs the bytes as sent, not a re-serialisation of them', () => {
    const spaced = JSON.stringify(JSON.parse(body), null, 2);
    expect(() => verifyWhatsAppSignature(delivery(signWhatsAppBody(spaced, SECRET), spaced), SECRET)).not.toThrow();
    expect(() => verifyWhatsAppSignature(delivery(signWhatsAppBody(spaced, SECRET), body), SECRET)).toThrow(UnverifiedDeliveryError);
  });
});
