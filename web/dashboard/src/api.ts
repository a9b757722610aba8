/**
 * The one fetch module of the dashboard: the public API with a bearer credential, JSON in and out, and
 * the API's error body turned into an ApiError whose `details` the forms show beside their fields.
 */

export interface FieldProblem {
  field: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: readonly FieldProblem[] = [],
    readonly requestId?: string,
  ) {
    super(message);
  }

  /** The message for one form field (`name` matches `body.name`), if the API named it. */
  fieldMessage(name: string): string | undefined {
    return this.details.find((detail) => detail.field === `body.${name}` || detail.field === name)?.message;
  }
}

/** Supplies the bearer credential of the current workspace (an access token minted from the session). */
export type CredentialSource = () => Promise<string | null>;

let credential: CredentialSource = async () => null;

export function setCredentialSource(source: CredentialSource): void {
  credential = source;
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  signal?: AbortSignal;
  /** Send no Authorization header (the /auth endpoints work with the session cookie). */
  anonymous?: boolean;
}

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (!options.anonymous) {
    const token = await credential();
    if (token !== null) headers.authorization = `Bearer ${token}`;
  }
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await fetch(path, { method: options.method ?? 'GET', headers, body, signal: options.signal, credentials: 'same-origin' });
  const text = await response.text();
  const json: unknown = text !== '' && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
  if (!response.ok) {
    const error = (typeof json === 'object' && json !== null ? json : {}) as Partial<Record<'error' | 'message' | 'requestId', string>> & {
      details?: FieldProblem[];
    };
    throw new ApiError(response.status, error.error ?? 'ERROR', error.message ?? response.statusText, error.details, error.requestId);
  }
  return json as T;
}
