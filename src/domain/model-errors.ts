import { UnknownModelError } from '../llm/chat/model-registry.js';
import { ModelError, type ModelFailure } from '../llm/model-error.js';
import { ParleyError, type ErrorKind } from './errors.js';

/** When a provider that rate limits us did not say when to come back. */
export const DEFAULT_MODEL_RETRY_AFTER_SECONDS = 10;

const AS_PARLEY_ERROR: Readonly<Record<ModelFailure, { kind: ErrorKind; code: string; message: string }>> = {
  refused: {
    kind: 'dependency_failed',
    code: 'MODEL_ERROR',
    message: 'The model provider refused the request; quote the requestId if you report it',
  },
  unavailable: {
    kind: 'unavailable',
    code: 'MODEL_UNAVAILABLE',
    message: 'The model provider is unavailable; try again later',
  },
  rate_limited: {
    kind: 'rate_limited',
    code: 'MODEL_RATE_LIMITED',
    message: 'The model provider is busy; try again after the time in Retry-After',
  },
};

/**
 * What a failure of `llm/` means to Parley's callers: our code and message, never the provider's text
 * (kept on the cause, for the log). Anything else passes through unchanged.
 */
export function fromModelFailure(error: unknown): unknown {
  if (error instanceof UnknownModelError) {
    return new ParleyError('invalid', 'UNKNOWN_MODEL', error.message);
  }
  if (!ModelError.isInstance(error)) return error;
  const { kind, code, message } = AS_PARLEY_ERROR[error.failure];
  const retryAfterSeconds =
    error.failure === 'rate_limited' ? (error.retryAfterSeconds ?? DEFAULT_MODEL_RETRY_AFTER_SECONDS) : error.retryAfterSeconds;
  return new ParleyError(kind, code, message, undefined, error.retryable, { retryAfterSeconds, cause: error });
}

/** Runs `call`, which reaches a model (to embed or to answer), turning its failures into ours. */
export async function callingModel<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw fromModelFailure(error);
  }
}
