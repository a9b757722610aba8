import { AsyncLocalStorage } from 'node:async_hooks';

/** What a piece of work was caused by: the API request whose id the client got as `X-Request-Id`. */
export interface RequestContext {
  readonly requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/**
 * Runs `work` on behalf of request `requestId`: jobs it enqueues and events it writes carry the id, and so
 * do the jobs and deliveries those cause, so one id finds every log line of what a request set off.
 */
export function onBehalfOf<T>(requestId: string | null | undefined, work: () => T): T {
  return requestId === null || requestId === undefined ? work() : storage.run({ requestId }, work);
}

/** The request the current work was caused by; null outside one. */
export const currentRequestId = (): string | null => storage.getStore()?.requestId ?? null;
