import { useEffect, useId, useState } from 'react';
import { channelLabel } from '../../components/channel-label';
import { FilterSelect } from '../../components/filter-select';
import { PlaygroundToggle } from '../../components/playground-toggle';
import { useAgents } from '../../queries/agents';
import { useLabels } from '../../queries/labels';
import { CHANNELS, CONVERSATION_STATUSES, type ConversationStatus } from '../../queries/conversations';
import { activeFilterCount, STATUS_LABELS, type InboxSearch } from './inbox-search';

interface InboxFiltersProps {
  search: InboxSearch;
  change: (next: Partial<InboxSearch>, options?: { replace?: boolean }) => void;
}

/** Typing pauses this long before the list follows. */
const TYPING_MS = 350;

/** Search and the filters of the list (agent, channel, status, dates), all kept in the URL. */
export function InboxFilters({ search, change }: InboxFiltersProps) {
  const id = useId();
  const agents = useAgents();
  const labels = useLabels();
  const [typed, setTyped] = useState(search.q ?? '');
  const active = activeFilterCount(search);

  // The address changed otherwise (back, a link): the box shows what the list is searching for.
  useEffect(() => setTyped((current) => (current.trim() === (search.q ?? '') ? current : (search.q ?? ''))), [search.q]);
  useEffect(() => {
    const wanted = typed.trim() === '' ? undefined : typed.trim();
    if (wanted === search.q) return;
    const timer = setTimeout(() => change({ q: wanted }, { replace: true }), TYPING_MS);
    return () => clearTimeout(timer);
  }, [typed, search.q, change]);

  const pick = (name: 'from' | 'to') => (value: string) => change({ [name]: value === '' ? undefined : value });

  return (
    <div className="inbox-filters">
      <form
        role="search"
        className="inbox-search"
        onSubmit={(event) => {
          event.preventDefault();
          change({ q: typed.trim() === '' ? undefined : typed.trim() });
        }}
      >
        <label htmlFor={`${id}-q`} className="visually-hidden">
          Search conversations
        </label>
        <input
          id={`${id}-q`}
          className="input"
          type="search"
          placeholder="Search messages, names, e-mails…"
          value={typed}
          maxLength={500}
          onChange={(event) => setTyped(event.target.value)}
        />
      </form>
      <details className="inbox-filter-panel" open={active > 0 ? true : undefined}>
        <summary>Filters{active > 0 && ` (${active})`}</summary>
        <div className="inbox-filter-grid">
          <FilterSelect
            id={`${id}-agent`}
            label="Agent"
            value={search.agentId}
            anyLabel="Any agent"
            options={(agents.data ?? []).map((agent) => ({ value: agent.id, label: agent.name }))}
            onChange={(agentId) => change({ agentId })}
            small
          />
          <FilterSelect
            id={`${id}-label`}
            label="Label"
            value={search.label}
            anyLabel="Any label"
            options={(labels.data ?? []).map((label) => ({ value: label.id, label: label.name }))}
            onChange={(label) => change({ label })}
            small
          />
          <FilterSelect
            id={`${id}-channel`}
            label="Channel"
            value={search.channel}
            anyLabel="Any channel"
            options={CHANNELS.map((channel) => ({ value: channel, label: channelLabel(channel) }))}
            onChange={(value) => change({ channel: CHANNELS.find((channel) => channel === value) })}
            small
          />
          {search.tab === 'all' && (
            <FilterSelect
              id={`${id}-status`}
              label="Status"
              value={search.status}
              anyLabel="Any status"
              options={CONVERSATION_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status] }))}
              onChange={(value) => change({ status: CONVERSATION_STATUSES.find((status): status is ConversationStatus => status === value) })}
              small
            />
          )}
          <div className="field">
            <label htmlFor={`${id}-from`}>From</label>
            <input
              id={`${id}-from`}
              className="input input-small"
              type="date"
              value={search.from ?? ''}
              max={search.to}
              onChange={(event) => pick('from')(event.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-to`}>To</label>
            <input
              id={`${id}-to`}
              className="input input-small"
              type="date"
              value={search.to ?? ''}
              min={search.from}
              onChange={(event) => pick('to')(event.target.value)}
            />
          </div>
          <PlaygroundToggle checked={search.playground === true} onChange={(checked) => change({ playground: checked ? true : undefined })} />
        </div>
        {active > 0 && (
          <button
            type="button"
            className="button button-small button-quiet"
            onClick={() =>
              change({
                status: undefined,
                agentId: undefined,
                label: undefined,
                channel: undefined,
                from: undefined,
                to: undefined,
                playground: undefined,
              })
            }
          >
            Clear filters
          </button>
        )}
      </details>
    </div>
  );
}
