import { useEffect, useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'wouter';
import type { Agent } from '../../queries/agents';
import type { AnalyticsFilter } from '../../queries/analytics';
import { FilterSelect } from '../../components/filter-select';
import { PlaygroundToggle } from '../../components/playground-toggle';
import { channelLabel } from '../../components/channel-label';
import { addDays, todayUtc } from './analytics-format';

/** The channels the range's conversations took place in, and the one chosen even when it has none. */
const channelChoices = (available: readonly string[], chosen: string | undefined): string[] =>
  chosen === undefined || available.includes(chosen) ? [...available] : [...available, chosen].sort();

const FIELDS = ['from', 'to', 'agentId', 'channel', 'includePlayground'] as const;

/** The last n days, today included. */
const PRESETS = [7, 30, 90] as const;

/**
 * The report's filter lives in the URL (`/analytics?from=…&to=…&agentId=…&channel=…&includePlayground=true`:
 * a link to it shows the same report); other parameters (the workspace) stay as they are.
 */
export function useAnalyticsFilter(): [AnalyticsFilter, (next: AnalyticsFilter) => void] {
  const [params, setParams] = useSearchParams();
  const filter: AnalyticsFilter = {};
  for (const field of ['from', 'to', 'agentId', 'channel'] as const) {
    const value = params.get(field);
    if (value !== null && value !== '') filter[field] = value;
  }
  if (params.get('includePlayground') === 'true') filter.includePlayground = 'true';
  const change = (next: AnalyticsFilter) =>
    setParams((current) => {
      const kept = new URLSearchParams(current);
      for (const field of FIELDS) {
        const value = next[field];
        if (value === undefined || value === '') kept.delete(field);
        else kept.set(field, value);
      }
      return kept;
    });
  return [filter, change];
}

interface AnalyticsFiltersProps {
  filter: AnalyticsFilter;
  /** The report shown (the API's defaults filled in, the channels it can pick), once there is one. */
  shown: { from: string; to: string; availableChannels: string[] } | undefined;
  agents: readonly Agent[];
  onChange: (next: AnalyticsFilter) => void;
}

/** The range, agent and channel of the report: presets and the playground switch apply at once, the form with its button. */
export function AnalyticsFilters({ filter, shown, agents, onChange }: AnalyticsFiltersProps) {
  const id = useId();
  const current = { ...filter, from: filter.from ?? shown?.from ?? '', to: filter.to ?? shown?.to ?? '' };
  const [draft, setDraft] = useState(current);
  // What the URL says wins whenever it changes (a preset, going back): the form shows it.
  const settled = JSON.stringify(current);
  useEffect(() => setDraft(JSON.parse(settled) as AnalyticsFilter & { from: string; to: string }), [settled]);

  const today = todayUtc();
  const lastDays = (days: number) => ({ from: addDays(today, -(days - 1)), to: today });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onChange(draft);
  };

  return (
    <div className="analytics-filters">
      <div className="presets" role="group" aria-label="Range">
        {PRESETS.map((days) => {
          const range = lastDays(days);
          return (
            <button
              key={days}
              type="button"
              className="button button-small"
              aria-pressed={current.from === range.from && current.to === range.to}
              onClick={() => onChange({ ...filter, ...range })}
            >
              Last {days} days
            </button>
          );
        })}
      </div>
      <form className="analytics-form" aria-label="Filter the figures" onSubmit={submit}>
        <div className="field">
          <label htmlFor={`${id}-from`}>From</label>
          <input
            id={`${id}-from`}
            className="input"
            type="date"
            value={draft.from}
            max={draft.to || today}
            onChange={(event) => setDraft({ ...draft, from: event.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-to`}>To</label>
          <input
            id={`${id}-to`}
            className="input"
            type="date"
            value={draft.to}
            min={draft.from}
            onChange={(event) => setDraft({ ...draft, to: event.target.value })}
          />
        </div>
        <FilterSelect
          id={`${id}-agent`}
          label="Agent"
          value={draft.agentId}
          anyLabel="All agents"
          options={agents.map((agent) => ({ value: agent.id, label: agent.name }))}
          onChange={(agentId) => setDraft({ ...draft, agentId })}
        />
        <FilterSelect
          id={`${id}-channel`}
          label="Channel"
          value={draft.channel}
          anyLabel="All channels"
          options={channelChoices(shown?.availableChannels ?? [], draft.channel).map((channel) => ({ value: channel, label: channelLabel(channel) }))}
          onChange={(channel) => setDraft({ ...draft, channel })}
        />
        <button type="submit" className="button button-primary">
          Show
        </button>
      </form>
      <PlaygroundToggle
        checked={filter.includePlayground === 'true'}
        onChange={(checked) => onChange({ ...filter, includePlayground: checked ? 'true' : undefined })}
      />
    </div>
  );
}
