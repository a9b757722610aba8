import { openEventStream } from '../api';
import { readServerSentEvents } from '../server-sent-events';
import type { LiveEvent, LiveEventType } from './live-event';

/** `connecting`: not live yet; `live`: following; `reconnecting`: the connection dropped and is being made again. */
export type StreamState = 'connecting' | 'live' | 'reconnecting';

export interface LiveEventStreamOptions {
  types: readonly LiveEventType[];
  onEvent(event: LiveEvent): void;
  /** The stream is live again but could not carry on where it stopped (or never had a place): refetch. */
  onReset(): void;
  onState(state: StreamState): void;
}

/** The server comments every 15 s; this long without a byte means the connection is gone. */
const IDLE_MS = 40_000;
const FIRST_RETRY_MS = 1_000;
const LAST_RETRY_MS = 30_000;
/** After the server ended a stream cleanly (a restart, a client too slow): back at once, nearly. */
const REOPEN_MS = 250;

/** 1 s, 2 s, 4 s… up to 30 s, each somewhat randomised so that tabs do not all come back at once. */
const retryDelay = (failures: number, random = Math.random()): number =>
  Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1)) * (0.75 + random / 2);

/**
 * The member's one connection to `GET /events/stream`: opened with the access token (renewed on a 401 by
 * the API module), reopened after a drop with backoff, resuming after the last event seen (Last-Event-ID).
 */
export class LiveEventStream {
  readonly #options: LiveEventStreamOptions;
  readonly #stop = new AbortController();
  #lastEventId: string | null = null;
  #wake: () => void = () => undefined;

  constructor(options: LiveEventStreamOptions) {
    this.#options = options;
  }

  start(): void {
    // Back online: no need to sit out the rest of a backoff.
    const online = () => this.#wake();
    window.addEventListener('online', online);
    this.#stop.signal.addEventListener('abort', () => window.removeEventListener('online', online));
    void this.#run();
  }

  stop(): void {
    this.#stop.abort();
    this.#wake();
  }

  async #run(): Promise<void> {
    const { signal } = this.#stop;
    const path = `/events/stream?types=${this.#options.types.join(',')}`;
    let failures = 0;
    let opened = false;
    while (!signal.aborted) {
      this.#options.onState(opened ? 'reconnecting' : 'connecting');
      try {
        const resumeFrom = this.#lastEventId;
        const body = await openEventStream(path, resumeFrom === null ? {} : { 'last-event-id': resumeFrom }, signal);
        for await (const message of readServerSentEvents(body, { idleMs: IDLE_MS })) {
          if (message.event === 'ready') {
            failures = 0;
            opened = true;
            this.#options.onState('live');
            const { resumed } = JSON.parse(message.data) as { resumed: boolean };
            // Without a place to resume from, whatever happened before this connection is unknown here.
            if (!resumed || resumeFrom === null) this.#options.onReset();
          } else if (message.id !== undefined && message.id !== '') {
            this.#lastEventId = message.id;
            this.#options.onEvent(JSON.parse(message.data) as LiveEvent);
          }
        }
      } catch (error) {
        if (signal.aborted) return;
        failures += 1;
        console.warn('The live event stream failed; trying again', error);
      }
      if (signal.aborted) return;
      await this.#pause(failures === 0 ? REOPEN_MS : retryDelay(failures));
    }
  }

  #pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
