import { useEffect, useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'wouter';
import type { Agent } from '../../queries/agents';
import type { AnalyticsFilter } from '../../queries/analytics';
import { PlaygroundToggle } from '../../components/playground-toggle';
import { addDays, channelLabel, todayUtc } from './analytics-format';

/** The channels the range's conversations took place in, and the one chosen even when it has none. */
const channelChoices = (available: readonly string[], chosen: string | undefined): string[] =>
  chosen === undefined || available.includes(chosen) ? [...available] : [...available, chosen].sort();

const FIELDS = ['from', 'to', 'agentId', 'channel', 'includePlayground'] as const;

/** The last n days, today included. */
const PRESETS = [7, 30, 90] as const;

/**
 * The report's filter lives in the URL (`/analytics?from=…&to=…&agentId=…&channel=…&includePlayground=true`,
 * DESIGN §7); other parameters (the workspace) stay as they are.
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
        <div className="field">
          <label htmlFor={`${id}-agent`}>Agent</label>
          <select
            id={`${id}-agent`}
            className="input"
            value={draft.agentId ?? ''}
            onChange={(event) => setDraft({ ...draft, agentId: event.target.value || undefined })}
          >
            <option value="">All agents</option>
            {agents.map((agent) => (
              <option key={agent.id} value={agent.id}>
                {agent.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-channel`}>Channel</label>
          <select
            id={`${id}-channel`}
            className="input"
            value={draft.channel ?? ''}
            onChange={(event) => setDraft({ ...draft, channel: event.target.value || undefined })}
          >
            <option value="">All channels</option>
            {channelChoices(shown?.availableChannels ?? [], draft.channel).map((channel) => (
              <option key={channel} value={channel}>
                {channelLabel(channel)}
              </option>
            ))}
          </select>
        </div>
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
