import type { UserStore } from '../store/store.js';

/** How long a revocation waits for the store to echo its announcement before answering anyway. */
const ECHO_TIMEOUT_MS = 2_000;

/**
 * The generation each person's access tokens must carry (DESIGN §7: revocation at once), kept in memory so
 * that checking a token costs no query. This process writes its own bumps through; PostgreSQL announces
 * other processes' bumps (NOTIFY, with the new generation, applied as it arrives); on SQLite a change of the
 * data version (another process committed something) reloads the small table before the next check.
 *
 * A revocation answers only once this process has heard its own announcement come back: PostgreSQL signals
 * every listener at the same commit, so by then the other processes hold it too, and the revoked person's
 * next request, wherever it lands, is refused.
 */
export class TokenGenerations {
  readonly #generations = new Map<string, number>();
  readonly #users: UserStore;
  #started: Promise<void> | undefined;
  #stopWatching: (() => Promise<void>) | undefined;
  #seenWrites: number | undefined;
  /** The newest generation the store announced per person: an announcement can come back before its bump returns. */
  readonly #announced = new Map<string, number>();
  /** Revocations waiting for their announcement to come back. */
  readonly #echoes = new Set<{ userId: string; generation: number; heard: () => void }>();

  constructor(users: UserStore) {
    this.#users = users;
  }

  /** The generation the person's tokens must carry now; lower ones are revoked. */
  async current(userId: string): Promise<number> {
    await this.#ready();
    const writes = this.#users.foreignWrites?.();
    if (writes !== undefined && writes !== this.#seenWrites) {
      this.#seenWrites = writes;
      await this.#reload();
    }
    return this.#generations.get(userId) ?? 0;
  }

  /** Revokes every token the person holds, in this process at once and in the others as the store announces it. */
  async revoke(userId: string): Promise<void> {
    await this.#ready();
    const generation = await this.#users.bumpAuthGeneration(userId);
    this.#raise(userId, generation);
    if (this.#stopWatching !== undefined) await this.#echo(userId, generation);
  }

  #echo(userId: string, generation: number): Promise<void> {
    if ((this.#announced.get(userId) ?? 0) >= generation) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = {
        userId,
        generation,
        heard: () => {
          clearTimeout(timer);
          this.#echoes.delete(waiter);
          resolve();
        },
      };
      // A lost announcement (the listening connection was being replaced) delays the answer, never blocks it.
      const timer = setTimeout(waiter.heard, ECHO_TIMEOUT_MS);
      this.#echoes.add(waiter);
    });
  }

  async stop(): Promise<void> {
    for (const waiter of this.#echoes) waiter.heard();
    await this.#stopWatching?.();
    this.#stopWatching = undefined;
  }

  /** Started once; a start that failed (the database was away) is tried again by the next call, not kept. */
  #ready(): Promise<void> {
    this.#started ??= this.#start().catch(async (error: unknown) => {
      this.#started = undefined;
      await this.stop();
      throw error;
    });
    return this.#started;
  }

  async #start(): Promise<void> {
    this.#seenWrites = this.#users.foreignWrites?.();
    this.#stopWatching = await this.#users.watchAuthGenerations?.((notice) => {
      const [userId, generation] = notice?.split(' ') ?? [];
      // Without a readable notice (a reconnection: some may have been missed) the whole table is read again.
      if (userId === undefined || generation === undefined) void this.#reload().catch(() => undefined);
      else this.#heard(userId, Number(generation));
    });
    await this.#reload();
  }

  async #reload(): Promise<void> {
    for (const { userId, generation } of await this.#users.authGenerations()) this.#raise(userId, generation);
  }

  #heard(userId: string, generation: number): void {
    this.#raise(userId, generation);
    this.#announced.set(userId, Math.max(generation, this.#announced.get(userId) ?? 0));
    for (const waiter of this.#echoes) if (waiter.userId === userId && waiter.generation <= generation) waiter.heard();
  }

  /** Generations only go up: a late reload never undoes a newer bump. */
  #raise(userId: string, generation: number): void {
    if (generation > (this.#generations.get(userId) ?? 0)) this.#generations.set(userId, generation);
  }
}
