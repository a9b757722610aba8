import { isJsonObject } from '../../text/json-object.js';

/** Where and as whom Crisp's REST API is called: a website, with a plugin token. */
export interface CrispApiAccess {
  /** The API's root including its version, `https://api.crisp.chat/v1` unless a test server. */
  apiBaseUrl: string;
  identifier: string;
  key: string;
}

/** Crisp answered with an error status: its HTTP status and its `reason` (`invalid_session`, `not_found`…), never more of its words. */
export class CrispRefusal extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
  ) {
    super(`Crisp answered ${status} (${reason})`);
    this.name = 'CrispRefusal';
  }
}

// A call that takes longer than this is a network failure.
const CALL_TIMEOUT_MS = 15_000;
const REASON = /^[a-z_]{1,64}$/;

/**
 * One call of Crisp's REST API (`{error, reason, data}` answers) through the given fetch, authenticated as
 * Crisp documents for plugin tokens: HTTP Basic with the token's identifier and key, and `X-Crisp-Tier: plugin`.
 * Answers `data`; throws {@link CrispRefusal} for an error status, the fetch's own error for a network failure.
 */
export async function callCrisp(
  fetch: typeof globalThis.fetch,
  access: CrispApiAccess,
  request: { method: 'GET' | 'POST' | 'PATCH'; path: string; body?: object },
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const url = `${access.apiBaseUrl.replace(/\/+$/, '')}/${request.path}`;
  const response = await fetch(url, {
    method: request.method,
    headers: {
      authorization: `Basic ${Buffer.from(`${access.identifier}:${access.key}`).toString('base64')}`,
      'x-crisp-tier': 'plugin',
      accept: 'application/json',
      ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    signal: AbortSignal.any([signal, AbortSignal.timeout(CALL_TIMEOUT_MS)]),
  });
  const answer: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const reason = isJsonObject(answer) && typeof answer.reason === 'string' && REASON.test(answer.reason) ? answer.reason : 'http_error';
    throw new CrispRefusal(response.status, reason);
  }
  if (!isJsonObject(answer)) throw new CrispRefusal(response.status, 'unreadable_answer');
  return isJsonObject(answer.data) ? answer.data : {};
}
