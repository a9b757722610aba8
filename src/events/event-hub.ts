import type { OutboxEventRecord, OutboxStore } from '../store/store.js';

export interface EventHubOptions {
  /**
   * How often each followed workspace is read without a wake-up: the only way to see what other processes
   * wrote when the store cannot announce it (SQLite), a safety net when it can (PostgreSQL NOTIFY).
   */
  pollMs: number;
  /** Events read per query. */
  batchSize: number;
  onError: (error: unknown) => void;
}

/** Someone following a workspace's events; `deliver` gets them in stream order, each once. */
export interface EventSubscription {
  close(): void;
}

interface Subscriber {
  /** The position of the last event delivered. */
  cursor: number;
  /** While it reads its backlog from the store, live events wait here. */
  pending: OutboxEventRecord[] | null;
  deliver(events: readonly OutboxEventRecord[]): void;
}

/** One workspace's followers and the stream position read up to for them. */
interface Channel {
  workspaceId: string;
  head: number;
  subscribers: Set<Subscriber>;
  reading: Promise<void> | null;
  /** A wake-up came while reading: read once more afterwards. */
  stale: boolean;
}

/**
 * Fans a workspace's outbox events out to the streams open on this process: one read of the store per
 * wake-up and workspace, however many streams follow it. Wake-ups come from this process's writes
 * (`wake`), from the store's announcements of every process's commits (PostgreSQL), and from a slow
 * poll. A stream that starts behind (`Last-Event-ID`) reads its backlog itself, then joins the live feed;
 * events are ordered by `seq`, so nothing is delivered twice or skipped at the seam.
 */
export class EventHub {
  /** Channels being opened or open, by workspace. */
  readonly #channels = new Map<string, Promise<Channel>>();
  /** The open ones: what wake-ups read for. */
  readonly #open = new Map<string, Channel>();
  #timer: NodeJS.Timeout | undefined;
  #unwatch: (() => Promise<void>) | undefined;

  constructor(
    private readonly outbox: OutboxStore,
    private readonly options: EventHubOptions,
  ) {}

  /** Starts listening to the store's announcements (when it makes any) and the poll. */
  async start(): Promise<void> {
    this.#unwatch = await this.outbox.watch?.((workspaceId) => this.wake(workspaceId ?? undefined));
    this.#timer = setInterval(() => this.wake(), this.options.pollMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#unwatch?.();
    this.#channels.clear();
    this.#open.clear();
  }

  /** Something was written for `workspaceId` (for every followed workspace without one): read it now. */
  wake(workspaceId?: string): void {
    if (workspaceId === undefined) {
      for (const channel of this.#open.values()) void this.refresh(channel);
      return;
    }
    const channel = this.#open.get(workspaceId);
    if (channel !== undefined) void this.refresh(channel);
  }

  /** How many streams follow events on this process. */
  get subscriberCount(): number {
    let count = 0;
    for (const channel of this.#open.values()) count += channel.subscribers.size;
    return count;
  }

  /**
   * Follows the workspace's events after stream position `after` (from now on without one). Resolves once
   * the backlog is delivered and live events flow.
   */
  async subscribe(
    workspaceId: string,
    after: number | undefined,
    deliver: (events: readonly OutboxEventRecord[]) => void,
  ): Promise<EventSubscription> {
    const channel = await this.channelOf(workspaceId);
    const subscriber: Subscriber = { cursor: after ?? channel.head, pending: [], deliver };
    channel.subscribers.add(subscriber);
    const close = () => this.leave(channel, subscriber);
    try {
      for (;;) {
        const backlog = await this.outbox.after(workspaceId, subscriber.cursor, this.options.batchSize);
        if (backlog.length === 0) break;
        this.hand(subscriber, backlog);
      }
    } catch (error) {
      close();
      throw error;
    }
    const waiting = subscriber.pending ?? [];
    subscriber.pending = null;
    this.hand(subscriber, waiting);
    return { close };
  }

  private hand(subscriber: Subscriber, events: readonly OutboxEventRecord[]): void {
    const fresh = events.filter((event) => event.seq > subscriber.cursor);
    if (fresh.length === 0) return;
    subscriber.cursor = fresh.at(-1)!.seq;
    try {
      subscriber.deliver(fresh);
    } catch (error) {
      // One stream's failure is its own: the others still get the events.
      this.options.onError(error);
    }
  }

  private channelOf(workspaceId: string): Promise<Channel> {
    let channel = this.#channels.get(workspaceId);
    if (channel === undefined) {
      channel = this.outbox.head(workspaceId).then((head) => {
        const opened: Channel = { workspaceId, head, subscribers: new Set(), reading: null, stale: false };
        this.#open.set(workspaceId, opened);
        return opened;
      });
      this.#channels.set(workspaceId, channel);
      // A failed first read must not stay cached: the next subscriber tries again.
      channel.catch(() => this.#channels.delete(workspaceId));
    }
    return channel;
  }

  private leave(channel: Channel, subscriber: Subscriber): void {
    channel.subscribers.delete(subscriber);
    if (channel.subscribers.size > 0) return;
    this.#channels.delete(channel.workspaceId);
    this.#open.delete(channel.workspaceId);
  }

  private refresh(channel: Channel): Promise<void> {
    if (channel.reading !== null) {
      channel.stale = true;
      return channel.reading;
    }
    channel.reading = this.readAhead(channel)
      .catch(this.options.onError)
      .finally(() => {
        channel.reading = null;
        if (channel.stale) {
          channel.stale = false;
          void this.refresh(channel);
        }
      });
    return channel.reading;
  }

  private async readAhead(channel: Channel): Promise<void> {
    for (;;) {
      const events = await this.outbox.after(channel.workspaceId, channel.head, this.options.batchSize);
      if (events.length === 0) return;
      channel.head = events.at(-1)!.seq;
      for (const subscriber of channel.subscribers) {
        if (subscriber.pending !== null) subscriber.pending.push(...events);
        else this.hand(subscriber, events);
      }
      if (events.length < this.options.batchSize) return;
    }
  }
}
