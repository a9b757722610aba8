import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether a secret a vendor's delivery carries is the connection's own, compared in constant time; both sides are
 * hashed first so that neither their contents nor their lengths show in the timing (timingSafeEqual itself
 * throws on different lengths). An empty expected secret matches nothing.
 */
export function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined || expected.length === 0) return false;
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}
