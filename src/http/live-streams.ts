import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { OpenedStream } from '../domain/event-streams.js';
import { openEventStreams } from '../observability/instruments.js';
import type { SseFrame } from '../contract/server-sent-events.js';
import { SseResponse } from './sse-response.js';

/** Proxies close connections idle for a minute or so; a comment every 15 s keeps a stream open. */
const HEARTBEAT_MS = 15_000;
/** How soon a client whose stream ends because this server stops should reconnect (to another one). */
const RECONNECT_AFTER_SHUTDOWN_MS = 1_000;
/** A client that does not read falls this far behind before it is cut off (it resumes with Last-Event-ID). */
const MAX_BACKLOG_BYTES = 8 * 1024 * 1024;

/** The OpenAPI answer of an event stream. */
export const EVENT_STREAM_RESPONSE = {
  description: 'An endless text/event-stream',
  content: { 'text/event-stream': { schema: Type.String() } },
};

/** `Last-Event-ID` when the client sent one (a reconnecting EventSource does), else `fallback`. */
export function lastEventId(request: FastifyRequest, fallback?: string): string | undefined {
  const header = request.headers['last-event-id'];
  return (typeof header === 'string' && header.trim() !== '' ? header.trim() : undefined) ?? fallback;
}

/**
 * The live streams of one plugin scope: each reply becomes an event stream fed by `open`, ended when the
 * client leaves and when the server closes (an endless response would hold it open).
 */
export class LiveStreams {
  readonly #closers = new Set<(retryAfterMs?: number) => void>();

  /** `kind` names the streams in the metrics (`parley_event_streams_open{stream=…}`). */
  constructor(
    app: FastifyInstance,
    private readonly kind: 'workspace' | 'conversation',
  ) {
    // The server is stopping: each client is told to come back soon, when another process (or this
    // one, restarted) will serve it from its Last-Event-ID.
    app.addHook('preClose', async () => {
      for (const close of this.#closers) close(RECONNECT_AFTER_SHUTDOWN_MS);
    });
  }

  /**
   * Opens the stream (the backlog is sent first), then a `ready` event (no id) saying whether it resumed,
   * then live events as `open`'s callback hands them in.
   */
  async serve<T>(
    reply: FastifyReply,
    open: (deliver: (items: readonly T[]) => void) => Promise<OpenedStream>,
    toFrame: (item: T) => SseFrame,
  ): Promise<void> {
    const sse = new SseResponse(reply);
    const stream = await open((items) => {
      for (const item of items) sse.send(toFrame(item));
      if (sse.backlog > MAX_BACKLOG_BYTES) sse.end();
    });
    sse.retry(3_000);
    sse.send({ event: 'ready', data: JSON.stringify({ resumed: stream.resumed }) });
    const heartbeat = setInterval(() => sse.comment('keep-alive'), HEARTBEAT_MS);
    const streams = openEventStreams.labels({ stream: this.kind });
    streams.inc();
    let closed = false;
    const close = (retryAfterMs?: number) => {
      if (closed) return;
      closed = true;
      streams.dec();
      this.#closers.delete(close);
      clearInterval(heartbeat);
      stream.close();
      if (retryAfterMs !== undefined) sse.retry(retryAfterMs);
      sse.end();
    };
    this.#closers.add(close);
    reply.raw.on('close', () => close());
    if (sse.ended) close();
  }
}
