import { Piscina } from 'piscina';
import { workerEntry } from '../../threads/worker-entry.js';
import type { PrepareTask, PreparedDocument } from './prepare-document.js';

/** Parses and chunks documents off the main thread, so ingestion never stalls the HTTP server. */
export class PreparePool {
  readonly #pool: Piscina<PrepareTask, PreparedDocument>;

  constructor(threads: number) {
    this.#pool = new Piscina({
      ...workerEntry(import.meta.url, 'prepare-worker'),
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: 30_000,
      // A hostile or huge document must not take the whole process down with it.
      resourceLimits: { maxOldGenerationSizeMb: 2048 },
    });
  }

  prepare(task: PrepareTask, signal?: AbortSignal): Promise<PreparedDocument> {
    return this.#pool.run(task, { signal });
  }

  close(): Promise<void> {
    return this.#pool.destroy();
  }
}
