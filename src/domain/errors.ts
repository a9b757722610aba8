/** What went wrong, independent of transport; `http/` maps each kind to a status code. */
export type ErrorKind =
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'usage_limit'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'unavailable'
  /** A service we depend on (a model provider) refused or failed, in a way a retry will not mend. */
  | 'dependency_failed';

/** One bad field of a request: where it is and what is wrong with it. */
export interface FieldProblem {
  field: string;
  message: string;
}

/** What some errors add: when to try again, and the failure behind them (for the log, never the caller). */
export interface ErrorExtras {
  /** Sent as `Retry-After`. */
  retryAfterSeconds?: number;
  cause?: unknown;
}

const MARKER = Symbol.for('parley.error');

/** The one error type the domain throws; `code` is stable and read by clients. */
export class ParleyError extends Error {
  readonly [MARKER] = true;
  override readonly name = 'ParleyError';
  readonly retryAfterSeconds?: number;

  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly details?: readonly FieldProblem[],
    readonly retryable = false,
    { retryAfterSeconds, cause }: ErrorExtras = {},
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.retryAfterSeconds = retryAfterSeconds;
  }

  static isInstance(value: unknown): value is ParleyError {
    return typeof value === 'object' && value !== null && MARKER in value;
  }
}

export const notFound = (what: string, id: string): ParleyError =>
  new ParleyError('not_found', 'NOT_FOUND', `${what} ${id} does not exist`);

export const forbidden = (what: string, id: string): ParleyError =>
  new ParleyError('forbidden', 'FORBIDDEN', `${what} ${id} belongs to another workspace`);

export const unauthorized = (message: string): ParleyError => new ParleyError('unauthorized', 'UNAUTHORIZED', message);

export const conflict = (message: string): ParleyError => new ParleyError('conflict', 'CONFLICT', message);

export const invalid = (message: string, details?: readonly FieldProblem[]): ParleyError =>
  new ParleyError('invalid', 'INVALID_REQUEST', message, details);
