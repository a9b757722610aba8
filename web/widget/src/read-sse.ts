import { sseParser, type SseFrame } from '../../../src/contract/server-sent-events.js';

/**
 * Reads a `text/event-stream` body frame by frame, with the contract's parser. EventSource cannot send a
 * POST body or an Authorization header, so the widget reads the stream through `fetch`.
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseFrame> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const frames: SseFrame[] = [];
  const parser = sseParser((frame) => frames.push(frame));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    parser.feed(decoder.decode(value, { stream: true }));
    yield* frames.splice(0);
  }
}
