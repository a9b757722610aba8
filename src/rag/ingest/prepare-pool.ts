import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { PrepareTask, PreparedDocument } from './prepare-document.js';

/** Worker-thread options that load the worker from TypeScript sources when we run from them (tests). */
export function workerScript(moduleUrl: string, name: string): { filename: string; execArgv: string[] } {
  const extension = path.extname(fileURLToPath(moduleUrl));
  return {
    filename: new URL(`./${name}${extension}`, moduleUrl).href,
    execArgv: extension === '.ts' ? ['--import', 'tsx'] : [],
  };
}

/** Parses and chunks documents off the main thread, so ingestion never stalls the HTTP server. */
export class PreparePool {
  readonly #pool: Piscina<PrepareTask, PreparedDocument>;

  constructor(threads: number) {
    this.#pool = new Piscina({
      ...workerScript(import.meta.url, 'prepare-worker'),
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
