import type { Datasource, DatasourceStatus } from '../queries/datasources';

const LABELS: Record<DatasourceStatus, string> = {
  unsynched: 'Queued',
  pending: 'Pending',
  running: 'Running',
  synched: 'Synched',
  error: 'Error',
  usage_limit_reached: 'Usage limit reached',
};

const TONES: Record<DatasourceStatus, string> = {
  unsynched: 'badge-waiting',
  pending: 'badge-waiting',
  running: 'badge-running',
  synched: 'badge-ok',
  error: 'badge-error',
  usage_limit_reached: 'badge-error',
};

/** A datasource's processing status in words, with its progress while it runs. */
export function StatusBadge({ datasource }: { datasource: Datasource }) {
  const percent = Math.round(datasource.progress * 100);
  return (
    <span className="status">
      <span className={`badge ${TONES[datasource.status]}`}>
        {LABELS[datasource.status]}
        {datasource.status === 'running' && ` ${percent}%`}
      </span>
      {datasource.status === 'running' && (
        <progress className="progress" max={100} value={percent} aria-label={`Processing ${datasource.name}`}>
          {percent}%
        </progress>
      )}
    </span>
  );
}
