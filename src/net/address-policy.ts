import ipaddr from 'ipaddr.js';

/**
 * True for addresses on the public internet. Private, loopback, link-local (cloud metadata at
 * 169.254.169.254), carrier-grade NAT, multicast, reserved and IPv4-in-IPv6 tunnelling forms are not.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

/** A URL Parley refuses to fetch; the message says why in words a person understands. */
export class BlockedUrlError extends Error {
  override readonly name = 'BlockedUrlError';
}
