import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { Embedder } from './embedder.js';
import type { EmbedTask } from './local-embedder-worker.js';
import { workerEntry } from '../../threads/worker-entry.js';

export interface LocalEmbedderOptions {
  /** Worker threads, each with its own copy of the model (~220 MB RSS, ~170 ms to load). Default: one per core. */
  threads?: number;
  /**
   * Texts per worker task (default 8, ~0.7 s of work). A query waits for a running task to end, so smaller
   * batches mean lower query latency during ingestion; 16 gains some throughput but triples that latency.
   */
  batchSize?: number;
  /**
   * One more thread (and model copy, ~+200 MB) that only takes queries arriving while every other thread
   * is busy, so they wait for no batch at all (measured: ~50 ms instead of ~0.3–0.7 s during ingestion).
   * Default false.
   */
  queryThread?: boolean;
}

const DEFAULT_BATCH_SIZE = 8;

/** One embedDocuments/embedQuery call: its texts, how far they have been handed out, where vectors go. */
interface Call {
  readonly texts: readonly string[];
  /** First text not yet handed to a thread; the end once the call has settled. */
  next: number;
  deliver(offset: number, vectors: readonly Float32Array[]): void;
  fail(error: unknown): void;
}

/**
 * The built-in offline embedder: Universal Sentence Encoder lite (512-d), run in a pool of worker threads
 * so embedding never blocks the event loop.
 *
 * Scheduling: at most one task per thread is handed to the pool, so nothing queues inside piscina and this
 * class decides what runs next: queries first, then document batches round-robin between calls (a large
 * ingestion does not starve a small one). Threads filled at the same moment get staggered first batches,
 * so they do not finish in lockstep: a query then waits for about `batchSize / threads` texts' worth of
 * work (one batch at worst), or for none with `queryThread`.
 */
export class LocalEmbedder implements Embedder {
  /** Bump the version when the model package changes: stored vectors must then be rebuilt. */
  readonly modelId = 'local:use-lite-512@0.2.0';
  readonly dimensions = 512;
  /** The graph reads the first 128 tokens of its input (local-embedder-worker.ts). */
  readonly maxInputTokens = 128;

  readonly #threads: number;
  readonly #batchSize: number;
  readonly #queryLane: LocalEmbedder | undefined;
  #pool: Piscina<EmbedTask, Float32Array[]> | undefined;
  readonly #queries: Call[] = [];
  readonly #documents: Call[] = [];
  readonly #active = new Set<Call>();
  #running = 0;
  #closed = false;

  constructor(options: LocalEmbedderOptions = {}) {
    this.#threads = positiveInteger('threads', options.threads ?? availableParallelism());
    this.#batchSize = positiveInteger('batchSize', options.batchSize ?? DEFAULT_BATCH_SIZE);
    this.#queryLane = options.queryThread ? new LocalEmbedder({ threads: 1, batchSize: 1 }) : undefined;
  }

  get threads(): number {
    return this.#threads;
  }

  /** Batches waiting for a thread (not counting running ones); for metrics and health checks. */
  get backlog(): number {
    let batches = 0;
    for (const call of this.#active) batches += Math.ceil((call.texts.length - call.next) / this.#batchSize);
    return batches + (this.#queryLane?.backlog ?? 0);
  }

  embedDocuments(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    return this.#submit(texts, this.#documents, signal);
  }

  async embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array> {
    if (this.#queryLane && !this.#closed && this.#running >= this.#threads) return this.#queryLane.embedQuery(text, signal);
    const [vector] = await this.#submit([text], this.#queries, signal);
    if (!vector) throw new Error('LocalEmbedder returned no vector for the query');
    return vector;
  }

  /**
   * Starts the threads and runs the graph once in each (the first run is several times slower than the
   * next ones); optional, the first calls do the same.
   */
  async warmUp(): Promise<void> {
    if (this.#closed) throw closedError();
    const pool = this.#ensurePool();
    await Promise.all([...Array.from({ length: this.#threads }, () => pool.run({ texts: ['warm up'] })), this.#queryLane?.warmUp()]);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const call of [...this.#active]) call.fail(closedError());
    await Promise.all([this.#pool?.destroy(), this.#queryLane?.close()]);
  }

  #submit(texts: readonly string[], lane: Call[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (this.#closed) return Promise.reject(closedError());
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (texts.length === 0) return Promise.resolve([]);
    this.#ensurePool();
    return new Promise((resolve, reject) => {
      const vectors = new Array<Float32Array>(texts.length);
      let missing = texts.length;
      const settle = (): void => {
        this.#active.delete(call);
        call.next = texts.length;
        const queued = lane.indexOf(call);
        if (queued >= 0) lane.splice(queued, 1);
        signal?.removeEventListener('abort', onAbort);
      };
      const call: Call = {
        texts,
        next: 0,
        deliver: (offset, batch) => {
          if (!this.#active.has(call)) return; // aborted or failed meanwhile: drop the late result
          batch.forEach((vector, i) => (vectors[offset + i] = vector));
          missing -= batch.length;
          if (missing === 0) {
            settle();
            resolve(vectors);
          }
        },
        fail: (error) => {
          if (!this.#active.has(call)) return;
          settle();
          reject(error);
        },
      };
      // Abort drops the call's queued texts; a batch already running finishes and is discarded.
      const onAbort = (): void => call.fail(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#active.add(call);
      lane.push(call);
      this.#pump();
    });
  }

  /** Hands batches to idle threads: queries first, then one batch per document call in turn. */
  #pump(): void {
    const pool = this.#pool;
    const idle = this.#threads - this.#running;
    let started = 0;
    while (pool && !this.#closed && this.#running < this.#threads) {
      const lane = this.#queries.length > 0 ? this.#queries : this.#documents;
      const call = lane.shift();
      if (!call) return;
      if (call.next >= call.texts.length) continue;
      // Several idle threads: first batches of 1/n, 2/n … n/n of batchSize, so completions stay spread out;
      // and a short call is spread over the idle threads rather than run on one.
      const left = call.texts.length - call.next;
      const size =
        idle > 1 ? Math.min(Math.ceil((this.#batchSize * (started + 1)) / idle), Math.ceil(left / Math.max(1, idle - started))) : this.#batchSize;
      const offset = call.next;
      call.next = Math.min(call.texts.length, offset + size);
      if (call.next < call.texts.length) lane.push(call);
      started += 1;
      this.#running += 1;
      void pool
        .run({ texts: call.texts.slice(offset, call.next) })
        .then(
          (vectors) => call.deliver(offset, vectors),
          (error: unknown) => call.fail(error),
        )
        .finally(() => {
          this.#running -= 1;
          this.#pump();
        });
    }
  }

  #ensurePool(): Piscina<EmbedTask, Float32Array[]> {
    if (!this.#pool) {
      const { filename, execArgv } = workerEntry(import.meta.url, 'local-embedder-worker');
      // Fixed size: a thread that came and went would pay the model load (and its memory) again.
      const pool = new Piscina<EmbedTask, Float32Array[]>({
        filename,
        execArgv,
        minThreads: this.#threads,
        maxThreads: this.#threads,
      });
      // A thread that dies outside a task (it could not load the model, say) is reported here, not to a
      // caller; unhandled it would crash the process. Fail what is waiting and start afresh on the next call.
      pool.on('error', (error: unknown) => {
        if (this.#pool !== pool) return;
        this.#pool = undefined;
        for (const call of [...this.#active]) call.fail(error);
        void pool.destroy();
      });
      this.#pool = pool;
    }
    return this.#pool;
  }
}

function closedError(): Error {
  return new Error('LocalEmbedder is closed');
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`LocalEmbedder ${name} must be a positive integer, got ${value}`);
  return value;
}
