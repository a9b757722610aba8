/**
 * The agent answer as server-sent events (README, "Answers"): `event: answer` frames carry URI-encoded
 * pieces of text, `event: endpoint_response` the URI-encoded JSON of the whole answer, an empty-named
 * `data: [DONE]` ends the stream and `data: [ERROR]<message>` ends it on a failure. The URI-encoding is the
 * hosted widget's framing: it runs `decodeURIComponent` on every event's data. The server writes the frames
 * here, and the widget, the dashboard and the tests decode them here.
 */
import type { AnswerBody } from './answers.js';
import type { SseFrame } from './server-sent-events.js';

/** The frames of an answer, as the server sends them. */
export const answerFrames = {
  delta: (text: string): SseFrame => ({ event: 'answer', data: encodeURIComponent(text) }),
  /** The whole answer; the server adds what the hosted widget reads besides (its `metadata`). */
  response: (answer: AnswerBody & Record<string, unknown>): SseFrame => ({
    event: 'endpoint_response',
    data: encodeURIComponent(JSON.stringify(answer)),
  }),
  done: (): SseFrame => ({ event: '', data: '[DONE]' }),
  error: (message: string): SseFrame => ({ data: `[ERROR]${message.replace(/\r?\n/g, ' ')}` }),
};

export type AnswerStreamPart =
  { kind: 'delta'; text: string } | { kind: 'response'; response: AnswerBody } | { kind: 'done' } | { kind: 'error'; message: string };

/** What one frame means; undefined for frames of no meaning to an answer. */
export function answerStreamPart({ event, data }: Pick<SseFrame, 'event' | 'data'>): AnswerStreamPart | undefined {
  if (data === '[DONE]') return { kind: 'done' };
  if (data.startsWith('[ERROR]')) return { kind: 'error', message: data.slice('[ERROR]'.length).trim() };
  if (event === 'answer') return { kind: 'delta', text: decodeURIComponent(data) };
  if (event === 'endpoint_response') return { kind: 'response', response: JSON.parse(decodeURIComponent(data)) as AnswerBody };
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
export async function readAnswerStream(
  frames: AsyncIterable<Pick<SseFrame, 'event' | 'data'>>,
  onDelta: (text: string) => void,
): Promise<AnswerBody> {
  let response: AnswerBody | undefined;
  for await (const frame of frames) {
    const part = answerStreamPart(frame);
    if (part?.kind === 'done') break;
    if (part?.kind === 'error') throw new AnswerStreamError('error', part.message || 'The answer could not be completed');
    if (part?.kind === 'delta') onDelta(part.text);
    else if (part?.kind === 'response') response = part.response;
  }
  if (response === undefined) throw new AnswerStreamError('cut-short', 'The answer ended before it was complete');
  return response;
}
