/**
 * The error catalogue: every code a client can read in an error body, with its HTTP status, whether trying
 * again may help, and a default message. At the bottom of the layers so any of them may throw a Parley
 * error; only the http error plugin turns one into a response (as Fastify keeps its own in lib/errors.js).
 */
export const ERRORS = {
  INVALID_REQUEST: { status: 400, retryable: false, message: 'The request is not valid' },
  UNKNOWN_MODEL: { status: 400, retryable: false, message: 'No such model is configured' },
  UNAUTHORIZED: { status: 401, retryable: false, message: 'A valid API key is needed' },
  USAGE_LIMIT: { status: 402, retryable: false, message: 'The workspace has reached a usage limit' },
  FORBIDDEN: { status: 403, retryable: false, message: 'The resource belongs to another workspace' },
  NOT_FOUND: { status: 404, retryable: false, message: 'No such resource' },
  CONFLICT: { status: 409, retryable: false, message: 'The request conflicts with the current state' },
  DUPLICATE_DATASOURCE: { status: 409, retryable: false, message: 'The datastore already holds this content' },
  PAYLOAD_TOO_LARGE: { status: 413, retryable: false, message: 'The request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, retryable: false, message: 'The content type is not supported' },
  RATE_LIMIT: { status: 429, retryable: true, message: 'Too many requests' },
  MODEL_RATE_LIMITED: { status: 429, retryable: true, message: 'The model provider is busy; try again after the time in Retry-After' },
  INTERNAL: { status: 500, retryable: false, message: 'Something went wrong on our side; quote the requestId if you report it' },
  SECRET_KEY_MISMATCH: {
    status: 500,
    retryable: false,
    message: 'A provider key was sealed under another secret key (PARLEY_SECRET_KEY or secret.key in the data directory): enter it again',
  },
  MODEL_ERROR: { status: 502, retryable: false, message: 'The model provider refused the request; quote the requestId if you report it' },
  UNAVAILABLE: { status: 503, retryable: true, message: 'A service Parley depends on cannot be reached' },
  MODEL_UNAVAILABLE: { status: 503, retryable: true, message: 'The model provider is unavailable; try again later' },
} as const satisfies Readonly<Record<string, ErrorDefinition>>;

export interface ErrorDefinition {
  status: number;
  /** Another attempt may succeed (the job runner retries these; clients may too). */
  retryable: boolean;
  message: string;
}

export type ErrorCode = keyof typeof ERRORS;

/** One bad field of a request, named as the use case knows it; the http layer says where it was sent. */
export interface FieldProblem {
  field: string;
  message: string;
}

/** The resource a conflict is with, named in the error body for a client to act on (DUPLICATE_DATASOURCE). */
export interface ExistingResource {
  id: string;
  name: string;
  type: string;
}

export interface ErrorOptions {
  details?: readonly FieldProblem[];
  existing?: ExistingResource;
  /** Sent as `Retry-After`. */
  retryAfterSeconds?: number;
  /** The failure behind it, for the log, never for the caller. */
  cause?: unknown;
}

const MARKER = Symbol.for('parley.error');

/** The one error type Parley throws on purpose; `code` is stable and read by clients. */
export class ParleyError extends Error {
  readonly [MARKER] = true;
  override readonly name = 'ParleyError';
  readonly details?: readonly FieldProblem[];
  readonly existing?: ExistingResource;
  readonly retryAfterSeconds?: number;

  constructor(
    readonly code: ErrorCode,
    message: string = ERRORS[code].message,
    { details, existing, retryAfterSeconds, cause }: ErrorOptions = {},
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.details = details;
    this.existing = existing;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  get status(): number {
    return ERRORS[this.code].status;
  }

  get retryable(): boolean {
    return ERRORS[this.code].retryable;
  }

  static isInstance(value: unknown): value is ParleyError {
    return typeof value === 'object' && value !== null && MARKER in value;
  }
}

export const notFound = (what: string, id: string): ParleyError => new ParleyError('NOT_FOUND', `${what} ${id} does not exist`);

export const forbidden = (what: string, id: string): ParleyError => new ParleyError('FORBIDDEN', `${what} ${id} belongs to another workspace`);

/** The caller's role (or its key's maker's) does not allow this. */
export const notPermitted = (message: string): ParleyError => new ParleyError('FORBIDDEN', message);

export const unauthorized = (message: string): ParleyError => new ParleyError('UNAUTHORIZED', message);

export const conflict = (message: string): ParleyError => new ParleyError('CONFLICT', message);

export const invalid = (message: string, details?: readonly FieldProblem[]): ParleyError => new ParleyError('INVALID_REQUEST', message, { details });
