import ipaddr from 'ipaddr.js';
import type { OutboundRules } from '../config.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** A URL Parley refuses to connect to; the message says why in words a person understands. */
export class BlockedUrlError extends Error {
  override readonly name = 'BlockedUrlError';
}

/** A host name as it is compared: `LocalHost.` is `localhost`. */
const comparable = (name: string): string => name.toLowerCase().replace(/\.+$/, '');

/** `localhost` and the names under it are this machine (RFC 6761): no resolver is asked about them. */
export function isLocalhostName(name: string): boolean {
  const host = comparable(name);
  return host === 'localhost' || host.endsWith('.localhost');
}

/** A URL's host once its spelling is undone: an address, or a name in lower case without trailing dots. */
export type Destination = { kind: 'address'; address: string } | { kind: 'name'; name: string };

const RANGE_WORDS: ReadonlyMap<string, string> = new Map([
  ['unicast', 'a public address'],
  ['loopback', 'a loopback address'],
  ['private', 'a private address'],
  ['uniqueLocal', 'a private (unique-local) address'],
  ['linkLocal', 'a link-local address'],
  ['carrierGradeNat', 'a carrier-grade NAT address'],
  ['unspecified', 'an unspecified address'],
  ['broadcast', 'the broadcast address'],
  ['multicast', 'a multicast address'],
]);

const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

const lastIPv4Of = (parts: readonly number[], at: number) =>
  new ipaddr.IPv4([parts[at]! >> 8, parts[at]! & 0xff, parts[at + 1]! >> 8, parts[at + 1]! & 0xff]);

/**
 * The IPv4 address an IPv6 one stands for: mapped (`::ffff:7f00:1`), translated (`::ffff:0:7f00:1`),
 * compatible (`::7f00:1`), NAT64 (`64:ff9b::7f00:1`) and 6to4 (`2002:7f00:1::`). Each reaches, or is
 * relayed to, that IPv4 address, so it is judged as that address.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const range = address.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145' || (range === 'rfc6052' && address.match(NAT64))) return lastIPv4Of(address.parts, 6);
  if (range === '6to4') return lastIPv4Of(address.parts, 1);
  if (range === 'unicast' && address.match(IPV4_COMPATIBLE)) return lastIPv4Of(address.parts, 6);
  return undefined;
}

/** An address on the public internet: not private, loopback, link-local, carrier-grade NAT, multicast or reserved. */
function isPublic(address: Address): boolean {
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  const embedded = embeddedIPv4(address as ipaddr.IPv6);
  return embedded === undefined ? address.range() === 'unicast' : isPublic(embedded);
}

/** The address a socket connects to: an IPv4-mapped IPv6 address is its IPv4 address. */
function connectedAddress(address: Address): Address {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() ? (address as ipaddr.IPv6).toIPv4Address() : address;
}

/** "a loopback address", "127.0.0.1 in IPv6 form, a loopback address": what the address is, for a message. */
function describe(address: Address): string {
  const embedded = address.kind() === 'ipv6' ? embeddedIPv4(address as ipaddr.IPv6) : undefined;
  const judged = embedded ?? address;
  const words = RANGE_WORDS.get(judged.range()) ?? `a reserved address (${judged.range()})`;
  return embedded === undefined ? words : `${embedded.toString()} in IPv6 form, ${words}`;
}

/** `[::1]` → `::1`, `LocalHost.` → `localhost`; addresses as ipaddr.js parses them. */
function hostOf(url: URL): Destination {
  const host = comparable(url.hostname.replace(/^\[|\]$/g, ''));
  return ipaddr.isValid(host) ? { kind: 'address', address: host } : { kind: 'name', name: host };
}

/**
 * Where Parley may connect on its own (PARLEY_OUTBOUND_ALLOW), judged on addresses as they are connected
 * to. A listed name may resolve anywhere; any other name must resolve only to allowed addresses. Names are
 * not even looked up when no address they could resolve to is allowed: with `loopback`, every name but
 * localhost's is refused without a question to DNS.
 */
export class OutboundPolicy {
  readonly #rules: OutboundRules;
  readonly #ranges: readonly [Address, number][];
  /** Some allowed address lies beyond this machine, so any name may resolve to one. */
  readonly #beyondLoopback: boolean;
  readonly #loopback: boolean;

  constructor(rules: OutboundRules) {
    this.#rules = rules;
    this.#ranges = rules.ranges.map((range) => ipaddr.parseCIDR(range));
    const withinLoopback = ([network, bits]: [Address, number]) => network.range() === 'loopback' && bits >= (network.kind() === 'ipv4' ? 8 : 128);
    this.#beyondLoopback = rules.public || !this.#ranges.every(withinLoopback);
    this.#loopback = this.#allows(ipaddr.parse('127.0.0.1')) || this.#allows(ipaddr.parse('::1'));
  }

  /**
   * The destination of `url`, refused (with a {@link BlockedUrlError}) when it can never be allowed: an
   * address outside the rules, localhost's names when loopback is not allowed, any other name the rules
   * do not list when every allowed address is this machine's. A name that comes back is then looked up,
   * and each address it resolves to goes through {@link checkResolved}.
   */
  destinationOf(url: URL): Destination {
    const destination = hostOf(url);
    if (destination.kind === 'address') {
      const address = ipaddr.parse(destination.address);
      if (!this.#allows(address)) throw this.#refusal(`${destination.address} is ${describe(address)}`);
      return destination;
    }
    const { name } = destination;
    if (this.#listed(name)) return destination;
    if (isLocalhostName(name) ? !this.#loopback : !this.#beyondLoopback) {
      throw this.#refusal(isLocalhostName(name) ? `${name} is this machine` : `${name} is not a listed host`);
    }
    return destination;
  }

  /** Refuses `address`, which `name` resolved to, unless the rules allow it; a listed name may go anywhere. */
  checkResolved(name: string, address: string): void {
    if (this.#listed(name)) return;
    const parsed = ipaddr.parse(address);
    if (!this.#allows(parsed)) throw this.#refusal(`${name} resolves to ${address}, ${describe(parsed)}`);
  }

  #listed(name: string): boolean {
    const host = comparable(name);
    return this.#rules.hosts.some((entry) => (entry.startsWith('.') ? host.endsWith(entry) : host === entry));
  }

  #allows(address: Address): boolean {
    if (this.#rules.public && isPublic(address)) return true;
    const connected = connectedAddress(address);
    return this.#ranges.some(([network, bits]) => connected.kind() === network.kind() && connected.match(network, bits));
  }

  #refusal(what: string): BlockedUrlError {
    return new BlockedUrlError(`${what}, which PARLEY_OUTBOUND_ALLOW=${this.#rules.setting} does not allow`);
  }
}
