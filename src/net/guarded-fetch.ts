import { Readable } from 'node:stream';
import { BlockedUrlError, type OutboundPolicy } from './address-policy.js';
import { guardedRequest } from './guarded-request.js';

/** Statuses whose answers have no body: `Response` refuses to be given one. */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/**
 * `fetch` for the model providers and the embeddings client, through {@link guardedRequest}: the same check,
 * on the addresses connected to, as webhooks and web pages. It fails as fetch does, so the AI SDK retries
 * what it would have retried: a network failure is `TypeError('fetch failed')` with its cause, an abort
 * throws the signal's reason; a destination the policy refuses is thrown as it is (no retry can help).
 * Redirects are not followed: a provider's API answers where it is configured. The body is streamed.
 */
export function guardedFetch(policy: OutboundPolicy): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    // The caller's own signal, not the request's copy: undici links that copy weakly, and a long answer could outlive it.
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    let response;
    try {
      response = await guardedRequest(request.url, {
        method: request.method,
        headers: Object.fromEntries(request.headers),
        body,
        policy,
        maxRedirects: 0,
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof BlockedUrlError) throw error;
      throw new TypeError('fetch failed', { cause: error });
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      for (const each of [value ?? []].flat()) headers.append(name, each);
    }
    const answer = { status: response.status, statusText: response.body.statusMessage, headers };
    if (!NULL_BODY_STATUSES.has(response.status)) return new Response(Readable.toWeb(response.body) as ReadableStream<Uint8Array>, answer);
    response.body.resume();
    return new Response(null, answer);
  };
}
