import type { KeyWithMaker } from '../store/store.js';

/** Keys kept per process: far more than a deployment uses at once, little memory (a record each). */
const DEFAULT_CAPACITY = 10_000;

interface CachedKey {
  found: KeyWithMaker;
  /** The revocation revision it was read under (`TokenGenerations.revision`). */
  revision: number;
}

/**
 * API keys found by the hash of their secret, so a keyed request costs no query. An entry holds only
 * under the revocation revision it was read at: a deleted key, or a maker removed or given another role,
 * here or in another process, raises the revision, and every entry is read again. Unknown secrets are not
 * kept (a stream of made-up keys must not push the real ones out). Past its capacity the oldest entry goes.
 */
export class KeyCache {
  readonly #entries = new Map<string, CachedKey>();
  readonly #capacity: number;

  constructor(capacity = DEFAULT_CAPACITY) {
    this.#capacity = capacity;
  }

  /** The key of `hash` as read under `revision`; undefined when not kept or read under another. */
  get(hash: string, revision: number): KeyWithMaker | undefined {
    const entry = this.#entries.get(hash);
    return entry?.revision === revision ? entry.found : undefined;
  }

  /** Keeps `found`, read under `revision` (the revision read *before* the query, so a revocation during it counts). */
  set(hash: string, found: KeyWithMaker, revision: number): void {
    this.#entries.delete(hash);
    if (this.#entries.size >= this.#capacity) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(hash, { found, revision });
  }

  delete(hash: string): void {
    this.#entries.delete(hash);
  }
}
