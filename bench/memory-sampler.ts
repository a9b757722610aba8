import fs from 'node:fs';

/** Linux's own high-water mark of this process's resident set (VmHWM), in bytes; undefined elsewhere. */
function readHighWaterMark(): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Resets VmHWM to the current RSS (Linux ≥ 4.0), so the next reading covers only what follows. */
function resetHighWaterMark(): boolean {
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

export interface PeakRss {
  /** Highest `process.memoryUsage.rss()` seen by the sampler (main thread timer, so it can miss short peaks). */
  sampledBytes: number;
  /** The kernel's high-water mark since `start()`, when it could be reset; misses nothing. */
  kernelBytes: number | undefined;
}

/**
 * Peak resident memory of the whole process over a stretch of work. RSS counts every thread of the
 * process, so worker threads (embedder, document parsing) are included.
 */
export class PeakRssSampler {
  #timer: NodeJS.Timeout | undefined;
  #peak = 0;
  #kernelReset = false;

  constructor(private readonly everyMs = 50) {}

  start(): void {
    this.#kernelReset = resetHighWaterMark();
    this.#peak = process.memoryUsage.rss();
    this.#timer = setInterval(() => {
      this.#peak = Math.max(this.#peak, process.memoryUsage.rss());
    }, this.everyMs);
    this.#timer.unref();
  }

  stop(): PeakRss {
    clearInterval(this.#timer);
    this.#peak = Math.max(this.#peak, process.memoryUsage.rss());
    const kernel = this.#kernelReset ? readHighWaterMark() : undefined;
    return { sampledBytes: this.#peak, kernelBytes: kernel };
  }
}
