import { useSyncExternalStore } from 'react';

/**
 * The time relative dates are worked out from, kept by one interval for the whole dashboard: it runs
 * while any component reads it, and each tick re-renders those readers ("just now" becomes "1 minute
 * ago") instead of each keeping an interval of its own.
 */
export class SharedClock {
  readonly #tickMs: number;
  readonly #listeners = new Set<() => void>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #now = Date.now();

  constructor(tickMs: number) {
    this.#tickMs = tickMs;
  }

  /** The time at the last tick, or when the first reader came. */
  readonly now = (): number => this.#now;

  /** Calls `listener` on every tick until the returned function is called; the interval runs while anyone listens. */
  readonly subscribe = (listener: () => void): (() => void) => {
    if (this.#listeners.size === 0) {
      // Idle until now: the time read before this subscription may be long past.
      this.#now = Date.now();
      this.#timer = setInterval(() => {
        this.#now = Date.now();
        for (const each of this.#listeners) each();
      }, this.#tickMs);
    }
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size > 0) return;
      clearInterval(this.#timer);
      this.#timer = undefined;
    };
  };
}

/** Half a minute: a relative time is never more than that behind ("just now" lasts 45 seconds). */
const clock = new SharedClock(30_000);

/** The current time, on the dashboard's one clock: the component renders again at each tick. */
export function useNow(): number {
  return useSyncExternalStore(clock.subscribe, clock.now);
}
