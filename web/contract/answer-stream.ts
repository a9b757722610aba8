/**
 * The agent answer as server-sent events (README, "Answers"): `event: answer` frames carry URI-encoded
 * pieces of text, `event: endpoint_response` the URI-encoded JSON of the whole answer, `data: [DONE]` ends
 * the stream and `data: [ERROR]<message>` ends it on a failure. The widget, the dashboard and the tests
 * decode it here; each brings its own reader of the event-stream lines.
 */

/** One event of the stream as any reader of the lines gives it: its name (if any) and its data. */
export interface StreamedEvent {
  event?: string;
  data: string;
}

export type AnswerStreamPart<T> =
  | { kind: 'delta'; text: string }
  | { kind: 'response'; response: T }
  | { kind: 'done' }
  | { kind: 'error'; message: string };

/** What one event means; undefined for events of no meaning to an answer. */
export function answerStreamPart<T>({ event, data }: StreamedEvent): AnswerStreamPart<T> | undefined {
  if (data === '[DONE]') return { kind: 'done' };
  if (data.startsWith('[ERROR]')) return { kind: 'error', message: data.slice('[ERROR]'.length).trim() };
  if (event === 'answer') return { kind: 'delta', text: decodeURIComponent(data) };
  if (event === 'endpoint_response') return { kind: 'response', response: JSON.parse(decodeURIComponent(data)) as T };
  return undefined;
}

/** The stream failed: the server said why (`error`), or it ended before the whole answer came (`cut-short`). */
export class AnswerStreamError extends Error {
  constructor(
    readonly reason: 'error' | 'cut-short',
    message: string,
  ) {
    super(message);
  }
}

/** Reads the answer, passing each piece of text to `onDelta`; resolves with the whole answer's JSON. */
export async function readAnswerStream<T>(events: AsyncIterable<StreamedEvent>, onDelta: (text: string) => void): Promise<T> {
  let response: T | undefined;
  for await (const event of events) {
    const part = answerStreamPart<T>(event);
    if (part?.kind === 'done') break;
    if (part?.kind === 'error') throw new AnswerStreamError('error', part.message || 'The answer could not be completed');
    if (part?.kind === 'delta') onDelta(part.text);
    else if (part?.kind === 'response') response = part.response;
  }
  if (response === undefined) throw new AnswerStreamError('cut-short', 'The answer ended before it was complete');
  return response;
}
