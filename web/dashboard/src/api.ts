/**
 * The one fetch module of the dashboard: the public API with a bearer credential, JSON in and out, and
 * the API's error body turned into an ApiError whose `details` the forms show beside their fields.
 * Uploads (XHR, for their progress events), the streamed agent answer and the live event stream go
 * through here too.
 */
import type { AnswerBody } from '../../../src/contract/answers';
import { AnswerStreamError, readAnswerStream } from '../../../src/contract/answer-stream';
import type { ErrorBody, FieldProblem } from '../../../src/contract/errors';
import { readServerSentEvents } from './server-sent-events';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: readonly FieldProblem[] = [],
    readonly requestId?: string,
    /** What the request conflicts with (a 409 naming the datasource that holds the content already). */
    readonly existing?: ErrorBody['existing'],
  ) {
    super(message);
  }

  /**
   * The message for one form field (`name` matches `body.name`, and `body.name.0` for an item of a
   * list), if the API named it.
   */
  fieldMessage(name: string): string | undefined {
    const named = (field: string) => field === `body.${name}` || field === name || field.startsWith(`body.${name}.`);
    return this.details.find((detail) => named(detail.field))?.message;
  }
}

/** The message of a form field's problem in a failed mutation, if any. */
export const fieldError = (error: unknown, name: string): string | undefined => (error instanceof ApiError ? error.fieldMessage(name) : undefined);

/** Supplies the bearer credential of the current workspace (an access token minted from the session). */
export interface CredentialSource {
  /** The credential to send now; null sends none. */
  current(): Promise<string | null>;
  /** After a 401: a fresh credential, or null when there is none to be had. */
  renew(): Promise<string | null>;
}

let credential: CredentialSource = { current: async () => null, renew: async () => null };

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

const OFFLINE = 'Parley cannot be reached. Check the connection and try again.';

/** Sends with the current credential and, when that is refused once, with a renewed one. */
async function withCredential(anonymous: boolean | undefined, send: (token: string | null) => Promise<Response>): Promise<Response> {
  if (anonymous) return send(null);
  const token = await credential.current();
  const response = await send(token);
  if (response.status !== 401 || token === null) return response;
  const renewed = await credential.renew();
  return renewed === null ? response : send(renewed);
}

function errorOf(status: number, statusText: string, json: unknown): ApiError {
  // Whatever answered may not be Parley (a proxy's page): every field may be missing.
  const body = (typeof json === 'object' && json !== null ? json : {}) as Partial<ErrorBody>;
  return new ApiError(status, body.error ?? 'ERROR', body.message ?? (statusText || `HTTP ${status}`), body.details, body.requestId, body.existing);
}

const parseBody = (text: string, contentType: string | null): unknown => (text !== '' && contentType?.includes('json') ? JSON.parse(text) : text);

async function send(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(path, { ...init, credentials: 'same-origin' });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'NETWORK', OFFLINE);
  }
}

/** The answer's body (JSON, or text) with its headers: a page of a list names the next one in a header. */
export async function apiWithHeaders<T>(path: string, options: RequestOptions = {}): Promise<{ body: T; headers: Headers }> {
  const headers: Record<string, string> = {};
  let body: BodyInit | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await withCredential(options.anonymous, (token) =>
    send(path, {
      method: options.method ?? 'GET',
      headers: token === null ? headers : { ...headers, authorization: `Bearer ${token}` },
      body,
      signal: options.signal,
    }),
  );
  const json = parseBody(await response.text(), response.headers.get('content-type'));
  if (!response.ok) throw errorOf(response.status, response.statusText, json);
  return { body: json as T, headers: response.headers };
}

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await apiWithHeaders<T>(path, options)).body;
}

/** The ApiError of a refused answer, from its body. */
const failureOf = async (response: Response): Promise<ApiError> =>
  errorOf(response.status, response.statusText, parseBody(await response.text(), response.headers.get('content-type')));

/**
 * Opens a GET answered with server-sent events (`GET /events/stream`), with the credential and its renewal
 * as for `api`: EventSource cannot send an Authorization header. A refusal is thrown as an ApiError; the
 * caller reads the body.
 */
export async function openEventStream(
  path: string,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<ReadableStream<Uint8Array<ArrayBuffer>>> {
  const response = await withCredential(false, (token) =>
    send(path, {
      headers: { ...headers, accept: 'text/event-stream', ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
      signal,
    }),
  );
  if (!response.ok || response.body === null) throw await failureOf(response);
  return response.body;
}

/** Progress of an upload: bytes sent of the total. */
export type UploadProgress = (sent: number, total: number) => void;

function postForm<T>(path: string, form: FormData, token: string | null, onProgress: UploadProgress, signal?: AbortSignal) {
  return new Promise<{ status: number; value: T | ApiError }>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', path);
    if (token !== null) request.setRequestHeader('authorization', `Bearer ${token}`);
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    });
    request.addEventListener('load', () => {
      let json: unknown;
      try {
        json = parseBody(request.responseText, request.getResponseHeader('content-type'));
      } catch {
        json = undefined;
      }
      const ok = request.status >= 200 && request.status < 300;
      resolve({ status: request.status, value: ok ? (json as T) : errorOf(request.status, request.statusText, json) });
    });
    request.addEventListener('error', () => reject(new ApiError(0, 'NETWORK', OFFLINE)));
    request.addEventListener('abort', () => reject(new DOMException('The upload was cancelled', 'AbortError')));
    signal?.addEventListener('abort', () => request.abort());
    request.send(form);
  });
}

/**
 * A file the API serves behind the credential (a message's attachment): fetched with it, then handed to the
 * browser as a download under `name`. A link alone cannot carry the Authorization header.
 */
export async function download(path: string, name: string): Promise<void> {
  const response = await withCredential(false, (token) => send(path, { headers: token === null ? {} : { authorization: `Bearer ${token}` } }));
  if (!response.ok) throw await failureOf(response);
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement('a'), { href: url, download: name, rel: 'noopener' });
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download; the object URL is no longer needed once it has been read.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** A multipart upload with progress events (fetch has none for request bodies). */
export async function upload<T>(path: string, form: FormData, onProgress: UploadProgress, signal?: AbortSignal): Promise<T> {
  let token = await credential.current();
  let result = await postForm<T>(path, form, token, onProgress, signal);
  if (result.status === 401 && token !== null) {
    token = await credential.renew();
    if (token !== null) result = await postForm<T>(path, form, token, onProgress, signal);
  }
  if (result.value instanceof ApiError) throw result.value;
  return result.value;
}

/**
 * A POST answered with server-sent events in the agent-answer framing (README; decoded by
 * src/contract/answer-stream.ts). Resolves to the final JSON.
 */
export async function streamAnswer(path: string, body: unknown, onDelta: (text: string) => void, signal?: AbortSignal): Promise<AnswerBody> {
  const response = await withCredential(false, (token) =>
    send(path, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify(body),
      signal,
    }),
  );
  if (!response.ok || response.body === null) throw await failureOf(response);
  try {
    return await readAnswerStream(readServerSentEvents(response.body), onDelta);
  } catch (error) {
    if (error instanceof AnswerStreamError) throw new ApiError(0, 'STREAM_ERROR', error.message);
    throw error;
  }
}
