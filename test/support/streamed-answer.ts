import { answerStreamPart } from '../../src/contract/answer-stream.js';
import { sseParser, type SseFrame } from '../../src/contract/server-sent-events.js';
import type { AnswerBody } from './bodies.js';

export interface StreamedAnswer {
  status: number;
  contentType: string | null;
  answer: string;
  /** The `endpoint_response` event's JSON. */
  final: AnswerBody | undefined;
  events: SseFrame[];
}

/** Reads an SSE answer with the contract's parser, as the dashboard and the widget do. */
export async function streamAnswer(url: string, key: string | null, body: unknown): Promise<StreamedAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify({ ...(body as object), streaming: true }),
  });
  const events: SseFrame[] = [];
  const parser = sseParser((event) => events.push(event));
  const decoder = new TextDecoder();
  for await (const chunk of response.body!) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
  const parts = events.map((event) => answerStreamPart(event));
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    answer: parts.map((part) => (part?.kind === 'delta' ? part.text : '')).join(''),
    final: parts.find((part) => part?.kind === 'response')?.response,
    events,
  };
}
