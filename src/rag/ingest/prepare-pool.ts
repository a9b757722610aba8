import { Piscina } from 'piscina';
import { workerEntry } from '../../threads/worker-entry.js';
import { PARSE_WORKER_MEMORY_MB } from './parse/parse-limits.js';
import { tookTooLong, tooMuchMemory } from './parse/unreadable.js';
import type { PrepareTask, PreparedDocument } from './prepare-document.js';

export interface PreparePoolOptions {
  /** One per job that may run at once, so that no document waits for a thread behind another's parse. */
  threads: number;
  /** Old-generation heap of each thread, in MB; a document that needs more ends its thread, not the process. */
  memoryMb?: number;
}

/** Parses and chunks documents off the main thread, so ingestion never stalls the HTTP server. */
export class PreparePool {
  readonly #pool: Piscina<PrepareTask, PreparedDocument>;
  readonly #memoryMb: number;

  constructor({ threads, memoryMb = PARSE_WORKER_MEMORY_MB }: PreparePoolOptions) {
    this.#memoryMb = memoryMb;
    this.#pool = new Piscina({
      ...workerEntry(import.meta.url, 'prepare-worker'),
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: 30_000,
      resourceLimits: { maxOldGenerationSizeMb: memoryMb },
    });
  }

  /**
   * Runs one task; `signal` terminates it mid-parse. A document that runs its thread out of memory, or takes
   * longer than `task.limits.seconds`, comes back unreadable: trying it again would only do the same. The time
   * is kept here, outside the thread, which is then terminated wherever it is (in a regular expression that
   * would never return, too).
   */
  async prepare(task: PrepareTask, signal?: AbortSignal): Promise<PreparedDocument> {
    const budget = new AbortController();
    const timer = setTimeout(() => budget.abort(), task.limits.seconds * 1000);
    try {
      return await this.#pool.run(task, { signal: signal === undefined ? budget.signal : AbortSignal.any([signal, budget.signal]) });
    } catch (error) {
      if (budget.signal.aborted && !signal?.aborted) return { ok: false, unreadable: tookTooLong(task.limits.seconds).message };
      if (!isOutOfMemory(error)) throw error;
      return { ok: false, unreadable: tooMuchMemory(this.#memoryMb).message };
    } finally {
      clearTimeout(timer);
    }
  }

  close(): Promise<void> {
    return this.#pool.destroy();
  }
}

const isOutOfMemory = (error: unknown): boolean => error instanceof Error && 'code' in error && error.code === 'ERR_WORKER_OUT_OF_MEMORY';
