import type { DatasourceStore } from '../../store/store.js';
import type { IngestTarget } from './ingest-job.js';
import { SupersededError } from '../../jobs/job-errors.js';

/**
 * Half a second between reads of a running job's generation: a delete or resync made in another process
 * stops the work within about a second, for two primary-key reads a second per running job.
 */
const CHECK_MS = 500;

/** One running ingest job, watched for being overtaken. */
export interface IngestWatch {
  /** Aborts, with a {@link SupersededError}, once the datasource is deleted or re-synced. */
  readonly signal: AbortSignal;
  /** Reads the generation now, without waiting for the next poll; aborts `signal` if it changed. */
  check(): Promise<void>;
  /** Stops watching; called when the job ends, whichever way. */
  end(): void;
}

interface Watched {
  generation: number;
  controller: AbortController;
}

/**
 * The ingest jobs running in this process, by datasource. A delete or resync made in this process says so
 * at once ({@link RunningIngests.supersede}); one made in another process shows as a changed generation,
 * which every watch reads every {@link CHECK_MS}. Either way the job's signal aborts, which terminates the
 * parse thread or the embedding call where it is, instead of at the job's next progress report.
 */
export class RunningIngests {
  readonly #watched = new Map<string, Set<Watched>>();

  constructor(private readonly datasources: Pick<DatasourceStore, 'generation'>) {}

  watch({ workspaceId, datasourceId, generation }: IngestTarget): IngestWatch {
    const watched: Watched = { generation, controller: new AbortController() };
    const siblings = this.#watched.get(datasourceId) ?? new Set();
    this.#watched.set(datasourceId, siblings.add(watched));
    let ended = false;
    let timer: NodeJS.Timeout | undefined;
    // One read at a time, however slow the store: the next is timed from the end of the last.
    const schedule = (): void => {
      if (ended || watched.controller.signal.aborted) return;
      timer = setTimeout(() => void check().finally(schedule), CHECK_MS);
      timer.unref();
    };
    const check = async (): Promise<void> => {
      try {
        const live = await this.datasources.generation(workspaceId, datasourceId);
        if (live !== generation) this.#overtake(datasourceId, watched, live);
      } catch {
        // A failed read is no verdict: the next one, or the job's own next report, decides.
      }
    };
    schedule();
    return {
      signal: watched.controller.signal,
      check,
      end: () => {
        ended = true;
        clearTimeout(timer);
        siblings.delete(watched);
        if (siblings.size === 0 && this.#watched.get(datasourceId) === siblings) this.#watched.delete(datasourceId);
      },
    };
  }

  /**
   * Work for `datasourceId` was overtaken in this process: it was deleted (`liveGeneration` undefined) or
   * re-synced as `liveGeneration`, whose own job is left running.
   */
  supersede(datasourceId: string, liveGeneration?: number): void {
    for (const watched of this.#watched.get(datasourceId) ?? []) {
      if (watched.generation !== liveGeneration) this.#overtake(datasourceId, watched, liveGeneration);
    }
  }

  #overtake(datasourceId: string, watched: Watched, live: number | undefined): void {
    const now = live === undefined ? 'was deleted' : `is at generation ${live}`;
    watched.controller.abort(new SupersededError(`datasource ${datasourceId} ${now}; generation ${watched.generation} stopped`));
  }
}
