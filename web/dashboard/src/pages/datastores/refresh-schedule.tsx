import { DateTime } from '../../components/date-time';
import { useSetRefreshInterval, type Datasource, type RefreshInterval } from '../../queries/datasources';

export const REFRESH_CHOICES: ReadonlyArray<{ value: RefreshInterval; label: string }> = [
  { value: 'off', label: 'Never' },
  { value: 'daily', label: 'Daily' },
  { value: 'weekly', label: 'Weekly' },
];

const OUTCOME_LABELS = { changed: 'changed, re-indexed', unchanged: 'unchanged', failed: 'failed' } as const;

/** A datasource fetched from a URL (and not a page of a site, which its site re-checks). */
export const hasRefreshSchedule = (datasource: Datasource): boolean =>
  datasource.config.source_url !== undefined && (datasource.groupId === '' || datasource.groupId === datasource.id);

/**
 * How often a URL datasource is fetched again, changed in place, with what the last check found and when the
 * next one is due.
 */
export function RefreshSchedule({ datastoreId, datasource }: { datastoreId: string; datasource: Datasource }) {
  const change = useSetRefreshInterval(datastoreId);
  const { refreshInterval = 'off', nextRefreshAt, lastCheck } = datasource.config;
  const selectId = `refresh-${datasource.id}`;
  return (
    <div className="refresh-schedule small">
      <span className="refresh-schedule-control">
        <label htmlFor={selectId}>Re-check</label>
        <select
          id={selectId}
          className="input input-small"
          value={change.isPending ? change.variables.interval : refreshInterval}
          disabled={change.isPending}
          aria-label={`Re-check ${datasource.name}`}
          onChange={(event) => change.mutate({ id: datasource.id, interval: event.target.value as RefreshInterval })}
        >
          {REFRESH_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </span>
      {lastCheck !== undefined && (
        <span className={lastCheck.outcome === 'failed' ? 'refresh-check refresh-check-failed' : 'refresh-check muted'} title={lastCheck.reason}>
          Checked <DateTime iso={lastCheck.at} relative />: {OUTCOME_LABELS[lastCheck.outcome]}
        </span>
      )}
      {refreshInterval !== 'off' && nextRefreshAt !== undefined && (
        <span className="refresh-check muted">
          Next check <DateTime iso={nextRefreshAt} relative />
        </span>
      )}
      {change.isError && (
        <span className="field-error" role="alert">
          Not changed: {change.error.message}
        </span>
      )}
    </div>
  );
}
