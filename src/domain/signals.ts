/** One kind of in-process news: whoever subscribed hears each notice, at once and in order. */
export class Signal<Args extends unknown[] = []> {
  readonly #listeners = new Set<(...args: Args) => void>();

  /** Hears every notice from now on; the function returned stops that. */
  subscribe(listener: (...args: Args) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  notify(...args: Args): void {
    for (const listener of this.#listeners) listener(...args);
  }
}

/**
 * What the use cases of a process tell its own workers and streams, so they act at once instead of at
 * their next poll (another process hears of the change at its poll, or through the store's announcements).
 * Made once per process (`openCore`); the use cases notify, and whoever acts subscribes: the workers
 * (`src/workers.ts`) and the live event streams (`createServices`).
 */
export interface Signals {
  /** A job was queued (an ingestion, a webhook replay): the job runners look for it now. */
  readonly jobEnqueued: Signal;
  /**
   * A change recorded an event of the workspace in the outbox: the dispatcher hands it on now, and the
   * workspace's live streams read it.
   */
  readonly eventRecorded: Signal<[workspaceId: string]>;
  /**
   * Work for a datasource was overtaken: it was deleted (`liveGeneration` undefined) or re-synced as
   * `liveGeneration`. A job running for an older generation stops where it is.
   */
  readonly datasourceSuperseded: Signal<[datasourceId: string, liveGeneration?: number]>;
  /** A channel connection was changed, switched off or deleted: its poller ends the pass it is waiting in and reads it again. */
  readonly channelConnectionChanged: Signal<[connectionId: string]>;
}

export const createSignals = (): Signals => ({
  jobEnqueued: new Signal(),
  eventRecorded: new Signal(),
  datasourceSuperseded: new Signal(),
  channelConnectionChanged: new Signal(),
});
