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
  | 'unavailable';

/** One bad field of a request: where it is and what is wrong with it. */
export interface FieldProblem {
  field: string;
  message: string;
}

const MARKER = Symbol.for('parley.error');

/** The one error type the domain throws; `code` is stable and read by clients. */
export class ParleyError extends Error {
  readonly [MARKER] = true;
  override readonly name = 'ParleyError';

  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly details?: readonly FieldProblem[],
    readonly retryable = false,
  ) {
    super(message);
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
