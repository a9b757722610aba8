import { setTimeout as sleep } from 'node:timers/promises';
import { isJsonObject } from '../../text/json-object.js';

/** Graph API error codes that mean "too many requests" (throttling, the number's and the pair's rate limits). */
const RATE_LIMIT_CODES: ReadonlySet<number> = new Set([4, 80007, 130429, 131048, 131056]);

/** A call the Graph API answered with its error object (`{"error": {"message", "code", "error_data": {"details"}}}`). */
export class GraphApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | undefined,
    /** Meta's message and its details: shown to people, never holding a token. */
    readonly said: string | undefined,
    readonly details: string | undefined,
    /** Retry-After, in seconds, when the answer gave one. */
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(`Graph API ${status}${code === undefined ? '' : ` error ${code}`}`);
    this.name = 'GraphApiError';
  }

  /** Throttled: HTTP 429, or one of the rate-limit error codes WhatsApp answers with 400. */
  get rateLimited(): boolean {
    return this.status === 429 || (this.code !== undefined && RATE_LIMIT_CODES.has(this.code));
  }
}

/** A media file larger than the connection may keep (its size told before or found while downloading). */
export class MediaTooLargeError extends Error {
  constructor() {
    super('The file is larger than Parley keeps');
    this.name = 'MediaTooLargeError';
  }
}

export interface GraphApiOptions {
  fetch: typeof fetch;
  /** The Graph API root with its version (`https://graph.facebook.com/v27.0`). */
  baseUrl: string;
  accessToken: string;
}

// A call that takes longer than this is a network failure.
const CALL_TIMEOUT_MS = 30_000;
// A throttled call is tried again this many times in place, as the job runner's backoff cannot take Meta's hint.
const RATE_LIMIT_RETRIES = 2;
// A Retry-After longer than this is the job runner's to wait out (the job is retried with backoff).
const MAX_RETRY_AFTER_SECONDS = 10;
// Without Retry-After, the wait before trying again in place.
const DEFAULT_RATE_LIMIT_WAIT_SECONDS = 1;

/**
 * The few Graph API calls the WhatsApp connector makes, with the bearer token, through the fetch it is given
 * (Parley's guarded one: the outbound policy applies to a configured base URL and to media URLs alike). A
 * throttled call is retried in place, honouring Retry-After, a bounded number of times.
 */
export class GraphApi {
  readonly #options: GraphApiOptions;

  constructor(options: GraphApiOptions) {
    this.#options = options;
  }

  /** GET `path` (under the base URL) with `query`: the answer's JSON object. */
  async get(path: string, query: Record<string, string>, signal: AbortSignal): Promise<Record<string, unknown>> {
    const url = `${this.#options.baseUrl}/${path}?${new URLSearchParams(query).toString()}`;
    return this.#json(url, { method: 'GET' }, signal);
  }

  /** POST a JSON body to `path`: the answer's JSON object. */
  async post(path: string, body: unknown, signal: AbortSignal): Promise<Record<string, unknown>> {
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
    return this.#json(`${this.#options.baseUrl}/${path}`, init, signal);
  }

  /**
   * A media file by its id: the Graph API tells its (short-lived) URL and size, the URL gives the bytes with the
   * same bearer token. Throws {@link MediaTooLargeError} beyond `maxBytes`, told or counted.
   */
  async media(mediaId: string, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> {
    const about = await this.get(encodeURIComponent(mediaId), {}, signal);
    if (typeof about.file_size === 'number' && about.file_size > maxBytes) throw new MediaTooLargeError();
    if (typeof about.url !== 'string' || !/^https?:\/\//.test(about.url))
      throw new GraphApiError(200, undefined, 'no media URL', undefined, undefined);
    const response = await this.#call(about.url, { method: 'GET' }, signal);
    const declared = Number(response.headers.get('content-length'));
    if (declared > maxBytes) {
      await response.body?.cancel();
      throw new MediaTooLargeError();
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of response.body ?? []) {
      size += chunk.byteLength;
      if (size > maxBytes) throw new MediaTooLargeError();
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  }

  async #json(url: string, init: RequestInit, signal: AbortSignal): Promise<Record<string, unknown>> {
    const response = await this.#call(url, init, signal);
    const body: unknown = await response.json().catch(() => undefined);
    if (!isJsonObject(body)) throw new GraphApiError(response.status, undefined, 'the answer was not JSON', undefined, undefined);
    return body;
  }

  /** One call, tried again in place while throttled with a short enough wait; a refusal throws {@link GraphApiError}. */
  async #call(url: string, init: RequestInit, signal: AbortSignal): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const response = await this.#options.fetch(url, {
        ...init,
        headers: { ...(init.headers as Record<string, string> | undefined), authorization: `Bearer ${this.#options.accessToken}` },
        signal: AbortSignal.any([signal, AbortSignal.timeout(CALL_TIMEOUT_MS)]),
      });
      if (response.ok) return response;
      const error = await graphErrorOf(response);
      const wait = error.retryAfterSeconds ?? DEFAULT_RATE_LIMIT_WAIT_SECONDS;
      if (!error.rateLimited || attempt >= RATE_LIMIT_RETRIES || wait > MAX_RETRY_AFTER_SECONDS) throw error;
      await sleep(wait * 1000, undefined, { signal });
    }
  }
}

async function graphErrorOf(response: Response): Promise<GraphApiError> {
  const body: unknown = await response.json().catch(() => undefined);
  const error = isJsonObject(body) && isJsonObject(body.error) ? body.error : {};
  const details = isJsonObject(error.error_data) && typeof error.error_data.details === 'string' ? error.error_data.details : undefined;
  return new GraphApiError(
    response.status,
    typeof error.code === 'number' ? error.code : undefined,
    typeof error.message === 'string' ? error.message : undefined,
    details,
    retryAfterOf(response.headers.get('retry-after')),
  );
}

/** Retry-After as seconds from now: a number of seconds or an HTTP date. */
function retryAfterOf(header: string | null): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}
