import { UnknownModelError } from '../llm/chat/model-registry.js';
import { ModelError, type ModelFailure } from '../llm/model-error.js';
import { ParleyError, type ErrorCode } from '../errors.js';

/** When a provider that rate limits us did not say when to come back. */
export const DEFAULT_MODEL_RETRY_AFTER_SECONDS = 10;

const CODE_OF: Readonly<Record<ModelFailure, ErrorCode>> = {
  refused: 'MODEL_ERROR',
  unavailable: 'MODEL_UNAVAILABLE',
  rate_limited: 'MODEL_RATE_LIMITED',
};

/**
 * What a failure of `llm/` means to Parley's callers: our code and message, never the provider's text
 * (kept on the cause, for the log). Anything else passes through unchanged.
 */
export function fromModelFailure(error: unknown): unknown {
  if (error instanceof UnknownModelError) {
    return new ParleyError('UNKNOWN_MODEL', error.message);
  }
  if (!ModelError.isInstance(error)) return error;
  const retryAfterSeconds =
    error.failure === 'rate_limited' ? (error.retryAfterSeconds ?? DEFAULT_MODEL_RETRY_AFTER_SECONDS) : error.retryAfterSeconds;
  return new ParleyError(CODE_OF[error.failure], undefined, { retryAfterSeconds, cause: error });
}

/** Runs `call`, which reaches a model (to embed or to answer), turning its failures into ours. */
export async function callingModel<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw fromModelFailure(error);
  }
}
