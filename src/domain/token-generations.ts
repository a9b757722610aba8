import type { AuthNotice, AuthWatch, UserStore } from '../store/store.js';

/** How long a revocation waits for the other processes to say they applied it before answering anyway. */
const APPLIED_TIMEOUT_MS = 2_000;

/** A revocation made here, waiting for every other process to apply it. */
interface Revocation {
  /** A user id, or `key:<id>` for a deleted API key. */
  subject: string;
  /** Known once the bump has committed. */
  generation?: number;
  /** The processes that watched when it started; each must apply the new generation. */
  waitingFor: Set<string>;
  /** The generation each process said it applied (a process can answer before the bump returns here). */
  applied: Map<string, number>;
  done: () => void;
}

/** A deleted key is revoked once and for all: its one generation. */
const DELETED_KEY_GENERATION = 1;

/**
 * The generation each person's access tokens must carry (revocation takes effect with the next request), kept in memory so
 * that checking a token costs no query. This process writes its own bumps through; PostgreSQL announces
 * every bump to every process (NOTIFY, with the new generation, applied as it arrives); on SQLite a change
 * of the data version (another process committed something) reloads the small table before the next check.
 * Deleted API keys travel the same way (`revokeKey`), so a process that caches keys (`KeyService`) learns
 * of them from {@link revision}.
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
  /** Raised by every change that may have revoked something: what caches compare against. */
  #revision = 0;
  readonly #revocations = new Set<Revocation>();

  constructor(users: UserStore) {
    this.#users = users;
  }

  /** The generation the person's tokens must carry now; lower ones are revoked. */
  async current(userId: string): Promise<number> {
    await this.#catchUp();
    return this.#generations.get(userId) ?? 0;
  }

  /**
   * A number that changes whenever a credential may have been revoked since: a bump or a deleted key in
   * this process or (announced) in another, and on SQLite any write of another process. What is cached
   * under one value is read again once it changed.
   */
  async revision(): Promise<number> {
    await this.#catchUp();
    return this.#revision;
  }

  /** Revokes every token the person holds, in this process at once and in the others as they apply it. */
  revoke(userId: string): Promise<void> {
    return this.#revokeEverywhere(userId, () => this.#users.bumpAuthGeneration(userId));
  }

  /** Tells every process that the key (already deleted) is revoked, and waits as {@link revoke} does. */
  revokeKey(keyId: string): Promise<void> {
    const subject = `key:${keyId}`;
    return this.#revokeEverywhere(subject, async (watch) => {
      await watch?.announce(subject, DELETED_KEY_GENERATION);
      return DELETED_KEY_GENERATION;
    });
  }

  async #revokeEverywhere(subject: string, bump: (watch: AuthWatch | undefined) => Promise<number>): Promise<void> {
    await this.#ready();
    const watch = this.#watch;
    if (watch === undefined) return this.#raise(subject, await bump(undefined));
    // Listed before the bump: a process that starts watching after it reads the table as it starts.
    const others = await watch.watchers().catch(() => []);
    let done!: () => void;
    const settled = new Promise<void>((resolve) => (done = resolve));
    const revocation: Revocation = { subject, waitingFor: new Set(others.filter((id) => id !== watch.id)), applied: new Map(), done };
    this.#revocations.add(revocation);
    // A process that does not answer (stopped, or its connection being replaced) delays the answer, never blocks it.
    const timer = setTimeout(done, APPLIED_TIMEOUT_MS);
    try {
      revocation.generation = await bump(watch);
      this.#raise(subject, revocation.generation);
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

  /** Started, and on SQLite up to date with the other processes' writes. */
  async #catchUp(): Promise<void> {
    await this.#ready();
    const writes = this.#users.foreignWrites?.();
    if (writes !== undefined && writes !== this.#seenWrites) {
      this.#seenWrites = writes;
      // Another process wrote: it may have deleted a key, which leaves no generation to reload.
      this.#revision += 1;
      await this.#reload();
    }
  }

  async #start(): Promise<void> {
    this.#seenWrites = this.#users.foreignWrites?.();
    const watching = this.#users.watchAuthGenerations?.((notice) => this.#hear(notice, watching));
    this.#watch = await watching;
    await this.#reload();
  }

  #hear(notice: AuthNotice | null, watching: Promise<AuthWatch> | undefined): void {
    // Without a notice (a reconnection: some may have been missed) the whole table is read again.
    if (notice === null) {
      // A deleted key announced while the connection was away leaves no row to reload.
      this.#revision += 1;
      return void this.#reload().catch(() => undefined);
    }
    if (notice.kind === 'bump') {
      this.#raise(notice.subject, notice.generation);
      void watching?.then((watch) => watch.applied(notice.subject, notice.generation)).catch(() => undefined);
      return;
    }
    for (const revocation of this.#revocations) {
      if (revocation.subject !== notice.subject) continue;
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
  #raise(subject: string, generation: number): void {
    if (generation <= (this.#generations.get(subject) ?? 0)) return;
    this.#generations.set(subject, generation);
    this.#revision += 1;
  }
}
