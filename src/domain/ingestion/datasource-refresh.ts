import type { DatasourceRecord, Store } from '../../store/store.js';
import { invalid } from '../../errors.js';
import type { Signals } from '../signals.js';
import { firstDueAt, nextDueAt, refreshIntervalOf, refreshJob, type RefreshInterval, type RefreshTarget } from './refresh-schedule.js';

/** `config` on the schedule `interval`, next due at `dueAt` (none when off). */
function withSchedule(config: Record<string, unknown>, interval: RefreshInterval, dueAt: string | undefined): Record<string, unknown> {
  const { nextRefreshAt: _previous, ...rest } = config;
  return { ...rest, refreshInterval: interval, ...(dueAt === undefined ? {} : { nextRefreshAt: dueAt }) };
}

/**
 * The schedule of a datasource fetched from a URL (a page, a site): its interval, and each due run, durable
 * (a job per run, its id naming the due time) and once however many workers hold it.
 */
export class DatasourceRefresh {
  constructor(
    private readonly store: Store,
    private readonly signals: Pick<Signals, 'jobEnqueued'>,
    private readonly resync: (workspaceId: string, id: string) => Promise<DatasourceRecord>,
  ) {}

  /**
   * Sets how often a datasource fetched from a URL is re-synced; the next run is a period from now (kept
   * when the interval does not change). Off leaves any run already queued to find nothing to do.
   */
  async setInterval(datasource: DatasourceRecord, interval: RefreshInterval): Promise<DatasourceRecord> {
    const { workspaceId, id } = datasource;
    if (interval !== 'off' && typeof datasource.config.source_url !== 'string') {
      throw invalid('Only datasources fetched from a URL are re-synced on a schedule', [
        { field: 'config.refreshInterval', message: 'must be off for a datasource without a source_url' },
      ]);
    }
    if (interval !== 'off' && datasource.groupId !== null && datasource.groupId !== datasource.id) {
      throw invalid('A page of a site is re-checked when its site is', [
        { field: 'config.refreshInterval', message: 'set it on the site datasource' },
      ]);
    }
    const scheduled = interval === 'off' || typeof datasource.config.nextRefreshAt === 'string';
    if (datasource.config.refreshInterval === interval && scheduled) return datasource;
    const dueAt = interval === 'off' ? undefined : firstDueAt(interval, new Date());
    // Queued first: a crash in between leaves a run that finds itself not due, never a due time with no run.
    if (dueAt !== undefined) await this.store.jobs.enqueueOnce(refreshJob({ workspaceId, datasourceId: id, dueAt }));
    const updated = await this.store.datasources.changeConfig(workspaceId, id, (config) => withSchedule(config, interval, dueAt));
    if (dueAt !== undefined) this.signals.jobEnqueued.notify();
    return updated ?? datasource;
  }

  /**
   * One due run of a datasource's schedule, once however many workers hold its job: still due (not turned off,
   * not rescheduled), it queues the next run, moves the due time on (compare and set: one caller wins) and
   * re-syncs, unless a sync is already under way.
   */
  async runDue({ workspaceId, datasourceId, dueAt }: RefreshTarget): Promise<void> {
    const datasource = await this.store.datasources.find(workspaceId, datasourceId);
    if (datasource === undefined) return;
    const interval = refreshIntervalOf(datasource.config);
    if (interval === 'off' || datasource.config.nextRefreshAt !== dueAt) return;
    const next = nextDueAt(interval, dueAt, new Date());
    await this.store.jobs.enqueueOnce(refreshJob({ workspaceId, datasourceId, dueAt: next }));
    const advanced = await this.store.datasources.changeConfig(workspaceId, datasourceId, (config) =>
      config.nextRefreshAt === dueAt && refreshIntervalOf(config) === interval ? { ...config, nextRefreshAt: next } : undefined,
    );
    if (advanced === undefined || advanced.status === 'pending' || advanced.status === 'running') return;
    await this.resync(workspaceId, datasourceId);
  }
}
