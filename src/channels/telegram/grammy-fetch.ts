import type { ApiClientOptions } from 'grammy';

type GrammyFetch = NonNullable<ApiClientOptions['fetch']>;

/** What grammy hands its fetch: node-fetch's options, its own AbortSignal polyfill among them. */
interface GrammyRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  signal?: { aborted: boolean; addEventListener(type: 'abort', listener: () => void): void } | null;
}

/**
 * A standard `fetch` (Parley's guarded one, which applies the outbound address policy to a user-given API root)
 * as grammy calls it. On Node, grammy is written for node-fetch: it passes an `abort-controller` polyfill signal
 * (which `AbortSignal.any` refuses), a keep-alive `connection` header and an `agent`; only the method, headers,
 * body and a native signal that follows grammy's are passed on. grammy reads nothing but `json()` from the answer.
 */
export function grammyFetch(base: typeof fetch): GrammyFetch {
  const call = async (url: unknown, init: GrammyRequestInit = {}): Promise<Response> => {
    // Only JSON bodies: Parley uploads no files through Telegram, and those are grammy's only streamed bodies.
    if (init.body !== undefined && typeof init.body !== 'string') throw new TypeError('Only JSON requests are sent to the Bot API');
    const headers = Object.fromEntries(Object.entries(init.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'connection'));
    const controller = new AbortController();
    if (init.signal?.aborted) controller.abort();
    else init.signal?.addEventListener('abort', () => controller.abort());
    return base(String(url), { method: init.method ?? 'GET', headers, body: init.body, signal: controller.signal });
  };
  // grammy types its fetch as node-fetch's; the call above is what it relies on of that type.
  return call as unknown as GrammyFetch;
}
