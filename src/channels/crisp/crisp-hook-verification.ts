import { createHmac } from 'node:crypto';
import { UnverifiedDeliveryError, headerOf, type InboundDelivery } from '../connector.js';
import { sameSecret } from '../same-secret.js';

/** How far a signed hook's timestamp may be from our clock, either way: older is expired (or replayed). */
export const CRISP_HOOK_WINDOW_MS = 5 * 60_000;
// Signatures remembered to refuse a second delivery of the same signed request; bounded so a flood cannot grow it.
const MAX_REMEMBERED = 10_000;

/** What a Crisp hook delivery is checked with: the key Parley put in the hook URL, and the plugin's signing secret when one is set. */
export interface CrispHookSecrets {
  /** The `key` query parameter of the hook URL Parley gave (Website Hooks are not signed: Crisp says to use such a key). */
  urlKey: string;
  /** The plugin's signing secret (Plugin Hooks sign every delivery with it); undefined for Website Hooks. */
  signingSecret: string | undefined;
}

/**
 * Crisp's hook checks, before anything of the body is read. Website Hooks carry no signature ("Website Hooks are
 * not signed, in contrary to Plugin Hooks"), so their URL carries a key Parley made, compared in constant time.
 * Plugin Hooks are signed as Crisp's Web Hooks reference (V1) documents: `X-Crisp-Signature` is the hex
 * HMAC-SHA256, with the signing secret, of `[<X-Crisp-Request-Timestamp>;<body as a string>]`. A timestamp more
 * than {@link CRISP_HOOK_WINDOW_MS} away is refused, and so is a signature already seen within that window.
 */
export class CrispHookVerifier {
  readonly #seen = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  verify(delivery: InboundDelivery, secrets: CrispHookSecrets): void {
    if (!sameSecret(delivery.query?.key, secrets.urlKey)) throw new UnverifiedDeliveryError('The hook URL’s key is missing or wrong');
    if (secrets.signingSecret === undefined) return;
    const signature = headerOf(delivery, 'x-crisp-signature');
    const timestamp = headerOf(delivery, 'x-crisp-request-timestamp');
    if (signature === undefined || timestamp === undefined || !/^\d{1,16}$/.test(timestamp)) {
      throw new UnverifiedDeliveryError('The hook is not signed: X-Crisp-Signature and X-Crisp-Request-Timestamp are required');
    }
    const at = Number(timestamp);
    // Crisp's timestamps are milliseconds; a timestamp in seconds is read as such rather than as 1970.
    const sentAt = at >= 1e12 ? at : at * 1000;
    const now = this.now();
    if (Math.abs(now - sentAt) > CRISP_HOOK_WINDOW_MS) throw new UnverifiedDeliveryError('The hook’s timestamp is too old or in the future');
    if (!signedBy(secrets.signingSecret, timestamp, delivery.body, signature)) {
      throw new UnverifiedDeliveryError('The hook’s signature does not match the signing secret');
    }
    this.#forgetBefore(now - CRISP_HOOK_WINDOW_MS);
    if (this.#seen.has(signature)) throw new UnverifiedDeliveryError('The hook was delivered before: a replay is refused');
    if (this.#seen.size >= MAX_REMEMBERED) this.#seen.delete(this.#seen.keys().next().value as string);
    this.#seen.set(signature, sentAt);
  }

  #forgetBefore(limit: number): void {
    for (const [signature, at] of this.#seen) if (at < limit) this.#seen.delete(signature);
  }
}

/** Crisp's signature of a delivery: hex HMAC-SHA256 of `[timestamp;body]`. */
export function crispHookSignature(signingSecret: string, timestamp: string, body: string): string {
  return createHmac('sha256', signingSecret).update(`[${timestamp};${body}]`).digest('hex');
}

/**
 * The body as Crisp signed it: the reference says "the full JSON body … made a string (eg. via JSON.stringify())".
 * Crisp sends compact JSON, so the bytes as received match; a body whose JSON was spelt otherwise (escapes,
 * spacing) is tried once more in JSON.stringify's spelling. Nothing parsed here is used unless it verifies.
 */
function signedBy(secret: string, timestamp: string, body: Buffer, signature: string): boolean {
  const raw = body.toString('utf8');
  if (sameSecret(signature.toLowerCase(), crispHookSignature(secret, timestamp, raw))) return true;
  let restated: string;
  try {
    restated = JSON.stringify(JSON.parse(raw));
  } catch {
    return false;
  }
  return restated !== raw && sameSecret(signature.toLowerCase(), crispHookSignature(secret, timestamp, restated));
}
