import type { JobRecord, NewJob } from '../../store/store.js';
import { PermanentJobError } from '../../jobs/job-errors.js';
import { indexedPageOf, type IndexedPage } from './page-check.js';

/** The job that parses, chunks, embeds and indexes one generation of a datasource. */
export const INGEST_JOB = 'ingest-datasource';

/** What an ingest job works on: one generation of one datasource of a workspace. */
export interface IngestTarget {
  workspaceId: string;
  datasourceId: string;
  generation: number;
  /**
   * A re-check (a re-sync, scheduled or asked for): a web page unchanged since its index was made keeps it,
   * neither parsed nor embedded again. Re-embeddings (another model or layout) index whatever they fetch.
   */
  recheck?: boolean;
  /**
   * A page its site's crawl fetched already (stored as the datasource's file): indexed from that file, not
   * fetched again; what the fetch found is recorded with the index.
   */
  prefetched?: IndexedPage;
}

/** The ingest job for `target`; the workspace goes on the job record, the rest in its payload. */
export function ingestJob(id: string, target: IngestTarget, maxAttempts: number): NewJob {
  const { workspaceId, datasourceId, generation, recheck, prefetched } = target;
  const payload = { datasourceId, generation, ...(recheck === true ? { recheck } : {}), ...(prefetched === undefined ? {} : { prefetched }) };
  return { id, kind: INGEST_JOB, workspaceId, payload, maxAttempts };
}

/** What {@link ingestJob} wrote; a job that does not hold it fails at once (another attempt cannot fix it). */
export function readIngestJob(job: JobRecord): IngestTarget {
  const { workspaceId } = job;
  const { datasourceId, generation, recheck, prefetched } = job.payload;
  if (workspaceId === null || typeof datasourceId !== 'string' || typeof generation !== 'number') {
    throw new PermanentJobError(`malformed ingest job ${JSON.stringify({ workspaceId, payload: job.payload })}`);
  }
  const fetched = typeof prefetched === 'object' && prefetched !== null ? indexedPageOf(prefetched as Record<string, unknown>) : undefined;
  return { workspaceId, datasourceId, generation, recheck: recheck === true, ...(fetched === undefined ? {} : { prefetched: fetched }) };
}
