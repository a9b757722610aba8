import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import net from 'node:net';
import { BlockedUrlError, isPublicAddress } from './address-policy.js';

export interface GuardedRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Let requests reach private, loopback and link-local addresses (tests, trusted intranets). */
  allowPrivate: boolean;
  /** Whole request, redirects included. */
  timeoutMs: number;
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

/** Resolves like the system resolver, then refuses any answer that is not a public address. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as dns.LookupAddress[];
    const blocked = list.find((entry) => !isPublicAddress(entry.address));
    if (blocked !== undefined || list.length === 0) {
      return callback(new BlockedUrlError(`${hostname} resolves to a private or reserved address (${blocked?.address ?? 'none'})`), '', 0);
    }
    if (options.all) return callback(null, list);
    const first = list[0]!;
    callback(null, first.address, first.family);
  });
};

function checkUrl(url: URL, allowPrivate: boolean): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BlockedUrlError(`Only http and https URLs can be fetched, not ${url.protocol}`);
  }
  if (allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) !== 0 && !isPublicAddress(host)) {
    throw new BlockedUrlError(`${host} is a private, loopback or reserved address`);
  }
  if (host === 'localhost' || host.endsWith('.localhost')) throw new BlockedUrlError(`${host} is this machine`);
}

/**
 * Refuses, before anything is sent, a URL whose host is or resolves to a non-public address; used to
 * reject a webhook endpoint when it is saved. Each request checks again on the address it connects to.
 */
export async function assertPublicDestination(target: URL, allowPrivate: boolean): Promise<void> {
  checkUrl(target, allowPrivate);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (allowPrivate || net.isIP(host) !== 0) return;
  const addresses = await dns.promises.lookup(host, { all: true }).catch(() => {
    throw new BlockedUrlError(`${host} does not resolve to any address`);
  });
  const blocked = addresses.find((entry) => !isPublicAddress(entry.address));
  if (blocked !== undefined) throw new BlockedUrlError(`${host} resolves to a private or reserved address (${blocked.address})`);
}

function requestOnce(url: URL, options: GuardedRequestOptions, signal: AbortSignal): Promise<http.IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(url, {
      method: options.method ?? 'GET',
      headers: options.headers,
      signal,
      // The check runs on the address actually connected to, so DNS rebinding cannot slip past it.
      lookup: options.allowPrivate ? undefined : publicOnlyLookup,
    });
    request.on('response', resolve);
    request.on('error', reject);
    request.end(options.body);
  });
}

/**
 * An HTTP request to a URL that a user supplied: only http(s), only public addresses unless allowed,
 * a bounded number of redirects (each checked again), and one deadline for the whole exchange.
 */
export async function guardedRequest(target: string, options: GuardedRequestOptions): Promise<GuardedResponse> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  let url = new URL(target);
  for (let redirects = 0; ; redirects += 1) {
    checkUrl(url, options.allowPrivate);
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
