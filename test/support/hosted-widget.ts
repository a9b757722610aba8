import { EventStreamContentType, fetchEventSource } from '@microsoft/fetch-event-source';

/** The hosted service's `endpoint_response`, as far as its widget reads it. */
export interface HostedChatResponse {
  answer?: string;
  messageId: string;
  conversationId: string;
  visitorId: string;
  sources?: unknown[];
  metadata?: Record<string, unknown>;
  visitorToken?: string;
}

export interface HostedWidgetAnswer {
  /** The text the widget shows, from the decoded `answer` events. */
  answer: string;
  /** The decoded `endpoint_response`, parsed at `[DONE]`; undefined when the widget never got there. */
  response: HostedChatResponse | undefined;
  /** How many times the question was sent: the widget sends it again on every failure short of a 4xx. */
  attempts: number;
  /** Why the widget gave up: a 4xx status, or the last failure once `maxAttempts` were spent. */
  failure: string | undefined;
}

/**
 * Asks a question the way the hosted service's widget does (gmpetrov/databerry, packages/ui/src/hooks/useChat.ts):
 * `fetchEventSource` POSTing the body as JSON; an `onopen` that accepts only a content type equal to
 * `text/event-stream` and treats anything else short of a 4xx as retriable, like the stream closing before
 * `[DONE]`; `decodeURIComponent` on the data of every `answer` and `endpoint_response` event (a failure there
 * retries too); the decoded response parsed at `[DONE]`. The widget retries every second forever; this one
 * retries at once and gives up after `maxAttempts`, so a test can count the attempts.
 */
export async function askLikeHostedWidget(url: string, body: Record<string, unknown>, maxAttempts = 3): Promise<HostedWidgetAnswer> {
  // The library is written for browsers: it reads timers from `window` and page visibility from `document`.
  const browser = globalThis as { window?: unknown; document?: unknown };
  browser.window ??= globalThis;
  browser.document ??= { hidden: false, addEventListener: () => undefined, removeEventListener: () => undefined };
  class RetriableError extends Error {}
  class FatalError extends Error {}
  const ctrl = new AbortController();
  let attempts = 0;
  let buffer = '';
  let bufferEndpointResponse = '';
  let response: HostedChatResponse | undefined;
  let failure: string | undefined;
  try {
    await fetchEventSource(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      openWhenHidden: true,
      body: JSON.stringify({ ...body, streaming: true }),
      signal: ctrl.signal,
      fetch: (input, init) => {
        attempts += 1;
        return globalThis.fetch(input, init);
      },
      async onopen(opened) {
        if (opened.ok && opened.headers.get('content-type') === EventStreamContentType) return;
        if (opened.status >= 400 && opened.status < 500 && opened.status !== 429) throw new FatalError(`status ${opened.status}`);
        throw new RetriableError(`status ${opened.status}, content-type ${opened.headers.get('content-type')}`);
      },
      onclose() {
        throw new RetriableError('closed before [DONE]');
      },
      onerror(error: unknown) {
        failure = error instanceof Error ? error.message : String(error);
        if (error instanceof FatalError || attempts >= maxAttempts) {
          ctrl.abort();
          throw error;
        }
        return 0;
      },
      onmessage(event) {
        if (event.data === '[DONE]') {
          ctrl.abort();
          response = JSON.parse(bufferEndpointResponse) as HostedChatResponse;
        } else if (event.data.startsWith('[ERROR]')) {
          ctrl.abort();
          failure = event.data.replace('[ERROR]', '');
        } else if (event.event === 'endpoint_response') {
          bufferEndpointResponse += decodeURIComponent(event.data);
        } else if (event.event === 'answer') {
          buffer += decodeURIComponent(event.data);
        }
      },
    });
  } catch {
    // The widget shows nothing more: `failure` says why.
  }
  return { answer: buffer, response, attempts, failure };
}
