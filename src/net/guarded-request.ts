import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { BlockedUrlError, isLocalhostName, type OutboundPolicy } from './address-policy.js';

export interface GuardedRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Where requests may go (PARLEY_OUTBOUND_ALLOW). */
  policy: OutboundPolicy;
  /** Whole request, redirects and body included; none when the caller bounds it through `signal`. */
  timeoutMs?: number;
  maxRedirects: number;
  signal?: AbortSignal;
}

export interface GuardedResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  finalUrl: string;
  /** The body; the caller reads it (with its own size cap) or destroys it. */
  body: http.IncomingMessage;
}

/** Localhost's names are answered here, as RFC 6761 asks, so they never reach a DNS server. */
const LOCALHOST: readonly dns.LookupAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

/** What `name` resolves to (of `family`, when given), each address checked against `policy`: all must be allowed. */
async function resolveAllowed(name: string, policy: OutboundPolicy, family = 0): Promise<dns.LookupAddress[]> {
  const found = isLocalhostName(name) ? LOCALHOST : await dns.promises.lookup(name, { all: true, family });
  const addresses = found.filter((entry) => family === 0 || entry.family === family);
  if (addresses.length === 0) throw new Error(`${name} does not resolve to any address`);
  for (const { address } of addresses) policy.checkResolved(name, address);
  return addresses;
}

/** The resolver of every guarded connection: the check runs on the addresses connected to, so DNS rebinding cannot slip past it. */
function guardedLookup(policy: OutboundPolicy): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    resolveAllowed(hostname, policy, family).then(
      (addresses) => (options.all ? callback(null, addresses) : callback(null, addresses[0]!.address, addresses[0]!.family)),
      (error: Error) => callback(error, '', 0),
    );
  };
}

const WEB_PROTOCOLS: readonly string[] = ['http:', 'https:'];

/** The URL's destination, refused when its scheme is not one of `protocols` or the policy can never allow its host. */
function checkUrl(url: URL, policy: OutboundPolicy, protocols: readonly string[]) {
  if (!protocols.includes(url.protocol)) {
    throw new BlockedUrlError(`Only ${protocols.map((each) => each.slice(0, -1)).join(' and ')} URLs can be used, not ${url.protocol}`);
  }
  return policy.destinationOf(url);
}

/**
 * Refuses, before anything is sent, a destination the policy does not allow: its host, or for a name,
 * what it resolves to now. Used when a webhook endpoint is saved and before an SMTP conversation; each
 * guarded request checks again on the addresses it connects to.
 */
export async function assertAllowedDestination(target: URL, policy: OutboundPolicy, protocols = WEB_PROTOCOLS): Promise<void> {
  const destination = checkUrl(target, policy, protocols);
  if (destination.kind === 'address') return;
  await resolveAllowed(destination.name, policy).catch((error: unknown) => {
    throw error instanceof BlockedUrlError ? error : new BlockedUrlError(`${destination.name} does not resolve to any address`);
  });
}

function requestOnce(url: URL, options: GuardedRequestOptions, signal: AbortSignal): Promise<http.IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(url, {
      method: options.method ?? 'GET',
      headers: options.headers,
      signal,
      lookup: guardedLookup(options.policy),
    });
    request.on('response', resolve);
    request.on('error', reject);
    request.end(options.body);
  });
}

/**
 * An HTTP request wherever Parley connects on its own: only http(s), only where the outbound policy
 * allows, a bounded number of redirects (each checked again), and one deadline for the whole exchange.
 */
export async function guardedRequest(target: string, options: GuardedRequestOptions): Promise<GuardedResponse> {
  const signals = [options.signal, options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs)];
  const signal = AbortSignal.any(signals.filter((each) => each !== undefined));
  let url = new URL(target);
  for (let redirects = 0; ; redirects += 1) {
    checkUrl(url, options.policy, WEB_PROTOCOLS);
    const response = await requestOnce(url, options, signal);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    // With no redirects allowed, a 3xx is the answer itself, for the caller to judge.
    if (status < 300 || status >= 400 || location === undefined || options.maxRedirects === 0) {
      return { status, headers: response.headers, finalUrl: url.toString(), body: response };
    }
    response.resume();
    if (redirects >= options.maxRedirects) throw new BlockedUrlError(`More than ${options.maxRedirects} redirects`);
    url = new URL(location, url);
  }
}
