import fs from 'node:fs/promises';
import path from 'node:path';

export interface TempFolderSweeperOptions {
  /** A file nobody wrote to for this long belongs to no upload or download under way. */
  orphanAfterMs: number;
  /** How often a running process sweeps again: a process sharing the folder may crash at any time. */
  everyMs: number;
  onError: (error: unknown) => void;
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Removes what crashed processes left in Parley's temporary folder: uploads, texts and fetched pages that
 * never reached the blob store. Only files untouched for `orphanAfterMs` go, so a file that another
 * process sharing the data directory is still writing stays.
 */
export class TempFolderSweeper {
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly directory: string,
    private readonly options: TempFolderSweeperOptions,
  ) {}

  /** Sweeps now, then every `everyMs` until stopped. */
  async start(): Promise<void> {
    await this.sweep();
    this.#timer = setInterval(() => void this.sweep(), this.options.everyMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /** Answers the names of the files it removed. */
  async sweep(now = Date.now()): Promise<string[]> {
    const removed: string[] = [];
    try {
      const entries = await fs.readdir(this.directory, { withFileTypes: true }).catch((error: unknown) => {
        if (isMissing(error)) return [];
        throw error;
      });
      for (const entry of entries.filter((each) => each.isFile())) {
        const file = path.join(this.directory, entry.name);
        // Another process may sweep the same folder: a file gone meanwhile is not an error.
        const stats = await fs.stat(file).catch((error: unknown) => {
          if (isMissing(error)) return undefined;
          throw error;
        });
        if (stats === undefined || now - stats.mtimeMs < this.options.orphanAfterMs) continue;
        await fs.rm(file, { force: true });
        removed.push(entry.name);
      }
    } catch (error) {
      this.options.onError(error);
    }
    return removed;
  }
}
