import { sseParser, type SseFrame } from '../../../src/contract/server-sent-events';

export interface ReadOptions {
  /**
   * Give up when nothing at all (not even a comment) arrived for this long: a connection a proxy or a
   * sleeping laptop dropped without a word looks like one that is merely quiet.
   */
  idleMs?: number;
}

/** No byte arrived within `idleMs`. */
export class StreamIdleError extends Error {
  constructor(idleMs: number) {
    super(`Nothing arrived for ${Math.round(idleMs / 1000)} s`);
  }
}

/**
 * The events of a `text/event-stream` body as they arrive, whatever way the bytes are cut (the contract's
 * parser does the framing). An unnamed event has no `event`; comments are not events, but they count as
 * signs of life for `idleMs`.
 */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array<ArrayBuffer>>, { idleMs }: ReadOptions = {}): AsyncGenerator<SseFrame> {
  let alive: () => void = () => undefined;
  let parser: ReturnType<typeof sseParser>;
  const events = body.pipeThrough(new TextDecoderStream()).pipeThrough(
    new TransformStream<string, SseFrame>({
      start(controller) {
        parser = sseParser((frame) => controller.enqueue(frame));
      },
      transform(text) {
        alive();
        parser.feed(text);
      },
    }),
  );
  const reader = events.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const idle =
    idleMs === undefined
      ? null
      : new Promise<never>((_, reject) => {
          alive = () => {
            clearTimeout(timer);
            timer = setTimeout(() => reject(new StreamIdleError(idleMs)), idleMs);
          };
          alive();
        });
  // A rejection nobody awaits yet (between two reads) must not surface as an unhandled one.
  idle?.catch(() => undefined);
  try {
    for (;;) {
      const { value, done } = await (idle === null ? reader.read() : Promise.race([reader.read(), idle]));
      if (done) return;
      yield value;
    }
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => undefined);
  }
}
