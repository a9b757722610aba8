import type { JobHandler } from '../../jobs/job-runner.js';
import type { JobRecord } from '../../store/store.js';
import type { DatasourceService } from '../datasources.js';
import { readRefreshJob } from './refresh-schedule.js';

/** Runs a due scheduled re-sync: the datasource service checks it is still due, schedules the next and re-syncs. */
export class RefreshDatasourceHandler implements JobHandler {
  constructor(private readonly datasources: Pick<DatasourceService, 'runDueRefresh'>) {}

  async run(job: JobRecord): Promise<void> {
    await this.datasources.runDueRefresh(readRefreshJob(job));
  }
}
