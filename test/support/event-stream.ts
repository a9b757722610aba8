import http from 'node:http';
import type { EventEnvelope, EventType } from '../../src/contract/events.js';
import { sseParser, type SseFrame } from '../../src/contract/server-sent-events.js';
import { Arrivals } from './arrivals.js';

/** An event of the stream, its envelope ({id, type, workspaceId, createdAt, data}) typed by its type. */
export type StreamedEvent = { [Type in EventType]: { id: string; type: Type; envelope: EventEnvelope<Type> } }[EventType];

export interface EventStreamOptions {
  /** An API key or a member's access token. */
  key: string;
  lastEventId?: string;
  since?: string;
  types?: string;
  /** How long to wait for the `ready` event. */
  timeoutMs?: number;
}

/**
 * A client of `GET /events/stream` over real HTTP: collects the events, resolves `open` once the server says
 * the stream is live (`ready`). Works outside the test runner too (the bench uses it).
 */
export class EventStreamClient {
  readonly events = new Arrivals<StreamedEvent>();
  /** Every frame's name in arrival order, `ready` included: to check where it falls. */
  readonly frames: string[] = [];
  readonly #abort = new AbortController();
  #done: Promise<void> = Promise.resolve();

  private constructor(readonly resumed: boolean) {}

  static async open(baseUrl: string, options: EventStreamOptions): Promise<EventStreamClient> {
    const url = new URL('/events/stream', baseUrl);
    if (options.since !== undefined) url.searchParams.set('since', options.since);
    if (options.types !== undefined) url.searchParams.set('types', options.types);
    const headers: Record<string, string> = { authorization: `Bearer ${options.key}`, accept: 'text/event-stream' };
    if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
    // A connection of its own (no keep-alive agent), destroyed on close: nothing lingers to hold a server open.
    const request = http.get(url, { headers, agent: false });
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      request.on('response', resolve);
      request.on('error', reject);
    });
    if (response.statusCode !== 200) {
      const chunks: Buffer[] = [];
      for await (const chunk of response) chunks.push(chunk as Buffer);
      request.destroy();
      throw new Error(`event stream answered ${response.statusCode}: ${Buffer.concat(chunks).toString()}`);
    }
    const frames: SseFrame[] = [];
    let onFrame: (frame: SseFrame) => void = (frame) => frames.push(frame);
    const parser = sseParser((frame) => onFrame(frame));
    response.setEncoding('utf8');
    response.on('data', (text: string) => parser.feed(text));
    const pump = new Promise<void>((resolve) => {
      response.on('close', resolve);
      request.on('error', () => resolve());
    });

    const ready = await new Promise<SseFrame>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no ready event')), options.timeoutMs ?? 10_000);
      const check = () => {
        const found = frames.find((frame) => frame.event === 'ready');
        if (found === undefined) return;
        clearTimeout(timer);
        resolve(found);
      };
      onFrame = (frame) => {
        frames.push(frame);
        check();
      };
      check();
    });
    const client = new EventStreamClient((JSON.parse(ready.data) as { resumed: boolean }).resumed);
    client.#done = pump;
    client.#abort.signal.addEventListener('abort', () => request.destroy());
    const take = (frame: SseFrame) => {
      client.frames.push(frame.event ?? 'message');
      if (frame.event === 'ready' || frame.id === undefined) return;
      const envelope = JSON.parse(frame.data) as EventEnvelope;
      client.events.push({ id: frame.id, type: envelope.type, envelope } as StreamedEvent);
    };
    for (const frame of frames) take(frame);
    onFrame = take;
    return client;
  }

  /** Resolves once the server ended the stream (or it was closed here). */
  ended(): Promise<void> {
    return this.#done;
  }

  close(): void {
    this.#abort.abort();
  }
}
