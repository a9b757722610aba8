import type { JobRecord, NewJob } from '../../store/store.js';
import { PermanentJobError } from '../../jobs/job-errors.js';

/** The job that re-syncs one datasource at one due time. */
export const REFRESH_JOB = 'refresh-datasource';

export const REFRESH_INTERVALS = ['off', 'daily', 'weekly'] as const;
export type RefreshInterval = (typeof REFRESH_INTERVALS)[number];

const PERIOD_MS: Record<Exclude<RefreshInterval, 'off'>, number> = { daily: 86_400_000, weekly: 7 * 86_400_000 };

/** What a datasource's config asks for; absent or unknown is off. */
export function refreshIntervalOf(config: Record<string, unknown>): RefreshInterval {
  const value = config.refreshInterval;
  return value === 'daily' || value === 'weekly' ? value : 'off';
}

/**
 * The run after one due at `dueAt`: a period later, or a period from `now` when that is past already (after
 * the workers were down for longer than a period), so missed runs are made up once, not in a burst.
 */
export function nextDueAt(interval: Exclude<RefreshInterval, 'off'>, dueAt: string, now: Date): string {
  const next = Date.parse(dueAt) + PERIOD_MS[interval];
  return new Date(next > now.getTime() ? next : now.getTime() + PERIOD_MS[interval]).toISOString();
}

/** The first run, a period from `now`. */
export const firstDueAt = (interval: Exclude<RefreshInterval, 'off'>, now: Date): string =>
  new Date(now.getTime() + PERIOD_MS[interval]).toISOString();

export interface RefreshTarget {
  workspaceId: string;
  datasourceId: string;
  dueAt: string;
}

/**
 * The job of one due run. Its id names the datasource and the due time, so every process that schedules the
 * same run enqueues the same job (JobStore.enqueueOnce), and the run happens once.
 */
export function refreshJob({ workspaceId, datasourceId, dueAt }: RefreshTarget): NewJob {
  return { id: `refresh:${datasourceId}:${dueAt}`, kind: REFRESH_JOB, workspaceId, payload: { datasourceId, dueAt }, maxAttempts: 3, runAt: dueAt };
}

export function readRefreshJob(job: JobRecord): RefreshTarget {
  const { workspaceId } = job;
  const { datasourceId, dueAt } = job.payload;
  if (workspaceId === null || typeof datasourceId !== 'string' || typeof dueAt !== 'string') {
    throw new PermanentJobError(`malformed refresh job ${JSON.stringify({ workspaceId, payload: job.payload })}`);
  }
  return { workspaceId, datasourceId, dueAt };
}
