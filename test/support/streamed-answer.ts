import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { answerStreamPart } from '../../web/contract/answer-stream.js';
import type { AnswerBody } from './bodies.js';

export interface StreamedAnswer {
  status: number;
  contentType: string | null;
  answer: string;
  /** The `endpoint_response` event's JSON. */
  final: AnswerBody | undefined;
  events: EventSourceMessage[];
}

/** Reads an SSE answer with eventsource-parser, as a server-side client would. */
export async function streamAnswer(url: string, key: string | null, body: unknown): Promise<StreamedAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify({ ...(body as object), streaming: true }),
  });
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  const decoder = new TextDecoder();
  for await (const chunk of response.body!) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
  const parts = events.map((event) => answerStreamPart<AnswerBody>(event));
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    answer: parts.map((part) => (part?.kind === 'delta' ? part.text : '')).join(''),
    final: parts.find((part) => part?.kind === 'response')?.response,
    events,
  };
}
