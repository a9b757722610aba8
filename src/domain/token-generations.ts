import type { AuthNotice, AuthWatch, UserStore } from '../store/store.js';

/** How long a revocation waits for the other processes to say they applied it before answering anyway. */
const APPLIED_TIMEOUT_MS = 2_000;

/** A revocation made here, waiting for every other process to apply it. */
interface Revocation {
  userId: string;
  /** Known once the bump has committed. */
  generation?: number;
  /** The processes that watched when it started; each must apply the new generation. */
  waitingFor: Set<string>;
  /** The generation each process said it applied (a process can answer before the bump returns here). */
  applied: Map<string, number>;
  done: () => void;
}

/**
 * The generation each person's access tokens must carry (DESIGN §7: revocation at once), kept in memory so
 * that checking a token costs no query. This process writes its own bumps through; PostgreSQL announces
 * every bump to every process (NOTIFY, with the new generation, applied as it arrives); on SQLite a change
 * of the data version (another process committed something) reloads the small table before the next check.
 *
 * On PostgreSQL a revocation answers only once every other process has said it applied the bump (each
 * announces so on the same channel), or after {@link APPLIED_TIMEOUT_MS} if one does not answer: PostgreSQL
 * delivers a notice to each listener in its own time, so an echo to this process alone would not prove that
 * the revoked person's next request, wherever it lands, is refused.
 */
export class TokenGenerations {
  readonly #generations = new Map<string, number>();
  readonly #users: UserStore;
  #started: Promise<void> | undefined;
  #watch: AuthWatch | undefined;
  #seenWrites: number | undefined;
  readonly #revocations = new Set<Revocation>();

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

  /** Revokes every token the person holds, in this process at once and in the others as they apply it. */
  async revoke(userId: string): Promise<void> {
    await this.#ready();
    const watch = this.#watch;
    if (watch === undefined) return this.#raise(userId, await this.#users.bumpAuthGeneration(userId));
    // Listed before the bump: a process that starts watching after it reads the table as it starts.
    const others = await watch.watchers().catch(() => []);
    let done!: () => void;
    const settled = new Promise<void>((resolve) => (done = resolve));
    const revocation: Revocation = { userId, waitingFor: new Set(others.filter((id) => id !== watch.id)), applied: new Map(), done };
    this.#revocations.add(revocation);
    // A process that does not answer (stopped, or its connection being replaced) delays the answer, never blocks it.
    const timer = setTimeout(done, APPLIED_TIMEOUT_MS);
    try {
      revocation.generation = await this.#users.bumpAuthGeneration(userId);
      this.#raise(userId, revocation.generation);
      this.#settle(revocation);
      await settled;
    } finally {
      clearTimeout(timer);
      this.#revocations.delete(revocation);
    }
  }

  async stop(): Promise<void> {
    for (const revocation of this.#revocations) revocation.done();
    await this.#watch?.stop();
    this.#watch = undefined;
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
    const watching = this.#users.watchAuthGenerations?.((notice) => this.#hear(notice, watching));
    this.#watch = await watching;
    await this.#reload();
  }

  #hear(notice: AuthNotice | null, watching: Promise<AuthWatch> | undefined): void {
    // Without a notice (a reconnection: some may have been missed) the whole table is read again.
    if (notice === null) return void this.#reload().catch(() => undefined);
    if (notice.kind === 'bump') {
      this.#raise(notice.userId, notice.generation);
      void watching?.then((watch) => watch.applied(notice.userId, notice.generation)).catch(() => undefined);
      return;
    }
    for (const revocation of this.#revocations) {
      if (revocation.userId !== notice.userId) continue;
      revocation.applied.set(notice.watcherId, Math.max(notice.generation, revocation.applied.get(notice.watcherId) ?? 0));
      this.#settle(revocation);
    }
  }

  /** Done once every process it waits for applied its generation. */
  #settle(revocation: Revocation): void {
    const { generation } = revocation;
    if (generation === undefined) return;
    if ([...revocation.waitingFor].every((id) => (revocation.applied.get(id) ?? 0) >= generation)) revocation.done();
  }

  async #reload(): Promise<void> {
    for (const { userId, generation } of await this.#users.authGenerations()) this.#raise(userId, generation);
  }

  /** Generations only go up: a late reload never undoes a newer bump. */
  #raise(userId: string, generation: number): void {
    if (generation > (this.#generations.get(userId) ?? 0)) this.#generations.set(userId, generation);
  }
}
