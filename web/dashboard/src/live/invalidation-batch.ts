import type { QueryClient, QueryKey } from '@tanstack/react-query';

/** Events come in bursts (a backlog after a reconnect, a bulk change): one refetch per burst is enough. */
const WINDOW_MS = 100;

/** Query keys to invalidate, gathered for a moment and each invalidated once. */
export class InvalidationBatch {
  readonly #queryClient: QueryClient;
  readonly #keys = new Map<string, QueryKey>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(queryClient: QueryClient) {
    this.#queryClient = queryClient;
  }

  add(queryKey: QueryKey): void {
    this.#keys.set(JSON.stringify(queryKey), queryKey);
    if (this.#timer === undefined) this.#timer = setTimeout(() => this.#flush(), WINDOW_MS);
  }

  #flush(): void {
    this.#timer = undefined;
    const keys = [...this.#keys.values()];
    this.#keys.clear();
    for (const queryKey of keys) void this.#queryClient.invalidateQueries({ queryKey });
  }
}
