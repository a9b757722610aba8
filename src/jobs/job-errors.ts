/** A failure that another attempt cannot fix (a corrupt file, a refused URL): the job fails at once. */
export class PermanentJobError extends Error {
  override readonly name = 'PermanentJobError';
  readonly retryable = false;
}

/**
 * Whether another attempt is pointless: the error says so with `retryable: false`, as PermanentJobError,
 * ParleyError and the model errors of `llm/` do (read by shape, so no layer needs to know the others).
 * An error that does not say is retried.
 */
export function isPermanent(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'retryable' in error && error.retryable === false;
}

/** The work was overtaken (deleted, re-synced) and must simply stop; not a failure. */
export class SupersededError extends Error {
  override readonly name = 'SupersededError';
}
