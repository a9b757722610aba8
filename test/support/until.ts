import { vi } from 'vitest';

/**
 * Reads `read` until `done` accepts its value, and answers that value: vitest's `vi.waitFor` does the
 * polling; this only says when the value is ready. Fails with the last value after `timeoutMs`.
 */
export function until<T>(read: () => T | Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await read();
      if (!done(value)) throw new Error(`not yet; last value: ${JSON.stringify(value)?.slice(0, 1000)}`);
      return value;
    },
    { timeout: timeoutMs, interval: 50 },
  );
}
