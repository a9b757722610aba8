import { APICallError, EmptyResponseBodyError, InvalidResponseDataError, JSONParseError, RetryError, TypeValidationError } from 'ai';

/**
 * How a model provider failed, as far as the caller can act on it:
 * - `refused`: it turned the request down (bad key, bad request, unknown model, content filter) or answered
 *   with something unusable; the same request fails again.
 * - `unavailable`: it could not be reached or did not answer in time, or failed on its side (5xx).
 * - `rate_limited`: it asked us to slow down.
 */
export type ModelFailure = 'refused' | 'unavailable' | 'rate_limited';

const MARKER = Symbol.for('parley.model-error');

/**
 * A model provider failed. `message` is ours and safe to show anyone; what the provider said (its status,
 * its text, which may name internal hosts or echo a key) is kept apart in `providerStatus` and
 * `providerMessage`, for the server log only.
 *
 * This error lives in `llm/` and knows nothing of Parley's API: the domain decides what a failure means to
 * its callers (status, code, message), so `llm/` stays a library under the domain, as the AI SDK is, and
 * `jobs/` can read `retryable` without knowing either.
 */
export class ModelError extends Error {
  readonly [MARKER] = true;
  override readonly name = 'ModelError';
  /** Whether the same request may succeed later: not when the provider refused it. */
  readonly retryable: boolean;

  constructor(
    readonly failure: ModelFailure,
    message: string,
    readonly providerStatus: number | undefined,
    readonly providerMessage: string,
    /** When the provider said when to try again (Retry-After), in whole seconds. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.retryable = failure !== 'refused';
  }

  static isInstance(value: unknown): value is ModelError {
    return typeof value === 'object' && value !== null && MARKER in value;
  }
}

/** Who failed, for our messages: "The embeddings provider", "The model provider". */
export interface FailedProvider {
  subject: string;
  /** A secret of ours (the API key) to cut from the provider's text before it is logged. */
  secret?: string;
}

const MAX_PROVIDER_MESSAGE_CHARS = 500;

/** What the AI SDK (or a fetch under it) threw, as a {@link ModelError}. */
export function toModelError(error: unknown, { subject, secret }: FailedProvider): ModelError {
  if (ModelError.isInstance(error)) return error;
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  const make = (failure: ModelFailure, status?: number, detail = describe(cause), retryAfter?: number) =>
    new ModelError(failure, messageFor(failure, subject, isTimeout(cause)), status, redact(detail, secret), retryAfter);

  if (APICallError.isInstance(cause)) {
    const status = cause.statusCode;
    const detail = `${status === undefined ? 'no response' : `HTTP ${status}`} from ${cause.url}: ${describe(cause)}`;
    return make(failureOfCall(cause), status, detail, retryAfterSeconds(cause.responseHeaders));
  }
  if (isTimeout(cause)) return make('unavailable');
  // A 2xx whose body is not what the API promises: asking again gets the same.
  const unusable = [JSONParseError, TypeValidationError, InvalidResponseDataError, EmptyResponseBodyError];
  if (unusable.some((type) => type.isInstance(cause))) return make('refused');
  // An error the provider sent inside an accepted stream (`{"error": {"type": "rate_limit_exceeded"}}`), a
  // connection cut mid-answer, or anything else: the request itself was fine, so another try may work.
  return make(/rate.?limit/i.test(describe(cause)) ? 'rate_limited' : 'unavailable');
}

function failureOfCall(error: APICallError): ModelFailure {
  const status = error.statusCode;
  if (status === 429) return 'rate_limited';
  if (status === undefined || status === 408 || status >= 500) return 'unavailable';
  // A 2xx that broke off is the network's doing (the SDK marks it retryable); one that does not parse is not.
  if (status < 300) return error.isRetryable ? 'unavailable' : 'refused';
  return 'refused';
}

function messageFor(failure: ModelFailure, subject: string, timedOut: boolean): string {
  if (timedOut) return `${subject} did not answer in time`;
  switch (failure) {
    case 'refused':
      return `${subject} refused the request; the server log has its answer`;
    case 'unavailable':
      return `${subject} is unavailable; the server log has the details`;
    case 'rate_limited':
      return `${subject} is rate limiting requests`;
  }
}

/** `AbortSignal.timeout` and our own silence timer both abort with a `TimeoutError`. */
function isTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === 'TimeoutError';
}

/** The error's message, with its cause's when it has one (`fetch failed: connect ECONNREFUSED …`). */
function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error && !error.message.includes(error.cause.message) ? `: ${describe(error.cause)}` : '';
    return `${error.message}${cause}`;
  }
  if (typeof error === 'string') return error;
  return JSON.stringify(error) ?? String(error);
}

function redact(text: string, secret: string | undefined): string {
  let safe = text.replace(/Bearer\s+\S+/gi, 'Bearer [redacted]');
  if (secret) safe = safe.split(secret).join('[redacted]');
  return safe.length > MAX_PROVIDER_MESSAGE_CHARS ? `${safe.slice(0, MAX_PROVIDER_MESSAGE_CHARS)}…` : safe;
}

/**
 * The provider's `Retry-After` (seconds or an HTTP date) or OpenAI's `retry-after-ms`, in whole seconds, at
 * least one; undefined when it sent none that parses.
 */
export function retryAfterSeconds(headers: Readonly<Record<string, string>> | undefined, now = Date.now()): number | undefined {
  const milliseconds = Number.parseFloat(headers?.['retry-after-ms'] ?? '');
  if (Number.isFinite(milliseconds)) return wholeSeconds(milliseconds / 1000);
  const value = headers?.['retry-after']?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return wholeSeconds(Number(value));
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : wholeSeconds((date - now) / 1000);
}

const wholeSeconds = (seconds: number) => Math.max(1, Math.ceil(seconds));
