import { useId, type ReactNode } from 'react';
import { Link } from 'wouter';
import { ApiError } from '../../api';
import { BarChart } from '../../components/bar-chart';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { ErrorState, LoadingState } from '../../components/query-status';
import { useAgents, type Agent } from '../../queries/agents';
import { useAnalytics, type AnalyticsReport } from '../../queries/analytics';
import { useDatastores, type Datastore } from '../../queries/datastores';
import { AnalyticsFilters, useAnalyticsFilter } from './analytics-filters';
import { channelLabel } from '../../components/channel-label';
import { channelColor, formatDay, formatDecimal, formatDuration, formatPercent, formatShortDay } from './analytics-format';
import { KnowledgeGaps } from './knowledge-gaps';

/** `/analytics?from=…&to=…&agentId=…&channel=…`: how conversations went, and what the agents could not answer. */
export function AnalyticsPage() {
  const [filter, setFilter] = useAnalyticsFilter();
  const report = useAnalytics(filter);
  const agents = useAgents();
  const datastores = useDatastores();
  return (
    <>
      <PageHeader title="Analytics" description="How conversations went, and what visitors asked that the agents could not answer." />
      <AnalyticsFilters filter={filter} shown={report.data} agents={agents.data ?? []} onChange={setFilter} />
      {report.isPending ? (
        <LoadingState label="Loading the figures…" />
      ) : report.isError ? (
        // A range the API refuses is refused again: only other failures are worth another try.
        <ErrorState error={report.error} retry={isRefusal(report.error) ? undefined : () => void report.refetch()} />
      ) : (
        <Report
          report={report.data}
          agents={agents.data ?? []}
          datastores={new Map((datastores.data ?? []).map((datastore) => [datastore.id, datastore]))}
        />
      )}
    </>
  );
}

const isRefusal = (error: unknown): boolean => error instanceof ApiError && error.status === 400;

/** What the report is about, in words: "between 1 Jan 2030 and 30 Jan 2030, for Support, on the website". */
function scopeOf(report: AnalyticsReport, agents: readonly Agent[]): string {
  const agent = report.agentId === null ? undefined : (agents.find((one) => one.id === report.agentId)?.name ?? 'this agent');
  return [
    `between ${formatDay(report.from)} and ${formatDay(report.to)}`,
    agent === undefined ? '' : `for ${agent}`,
    report.channel === null ? '' : `on ${channelLabel(report.channel)}`,
  ]
    .filter(Boolean)
    .join(', ');
}

function Report({ report, agents, datastores }: { report: AnalyticsReport; agents: readonly Agent[]; datastores: ReadonlyMap<string, Datastore> }) {
  const { conversations, ratings, topDatasources, knowledgeGaps } = report;
  const empty = conversations.total === 0 && knowledgeGaps.total === 0 && ratings.good + ratings.bad === 0 && topDatasources.length === 0;
  if (empty) {
    return (
      <EmptyState title="Nothing in this range">
        No conversation started and no agent answered {scopeOf(report, agents)}
        {report.includePlayground ? '' : ' (the playground’s questions left out)'}. Pick a longer range
        {report.includePlayground ? '' : ', or include the playground'}.
      </EmptyState>
    );
  }
  return (
    <div className="stack analytics">
      <p className="muted small">Figures {scopeOf(report, agents)} (days in UTC).</p>
      <Figures report={report} />
      <Card title="Conversations per day">
        <ConversationsPerDay report={report} />
      </Card>
      <div className="analytics-grid">
        <Card title="Answer ratings">
          <Ratings good={ratings.good} bad={ratings.bad} />
        </Card>
        <Card title="Datasources cited most">
          <CitedDatasources report={report} />
        </Card>
      </div>
      <Card
        title="Knowledge gaps"
        description="Questions the agents could not answer from their datastores: nothing was found, or nothing close enough. Repeats count once."
      >
        <KnowledgeGaps gaps={knowledgeGaps.items} total={knowledgeGaps.total} datastores={datastores} />
      </Card>
    </div>
  );
}

function Card({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="card analytics-card" aria-labelledby={id}>
      <div>
        <h2 id={id}>{title}</h2>
        {description !== undefined && <p className="muted small">{description}</p>}
      </div>
      {children}
    </section>
  );
}

function Figure({ label, value, note }: { label: string; value: string; note: string }) {
  return (
    <div className="figure">
      <dt>{label}</dt>
      <dd className="figure-value">{value}</dd>
      <dd className="figure-note">{note}</dd>
    </div>
  );
}

function Figures({ report }: { report: AnalyticsReport }) {
  const { conversations: c, ratings, knowledgeGaps } = report;
  const rated = ratings.good + ratings.bad;
  const of = (part: number) => `${part.toLocaleString()} of ${c.total.toLocaleString()}`;
  return (
    <dl className="figures">
      <Figure label="Conversations" value={c.total.toLocaleString()} note={`${formatDecimal(c.messagesPerConversation)} messages each`} />
      <Figure label="Resolved" value={formatPercent(c.resolutionRate)} note={of(c.resolved)} />
      <Figure label="Human requested" value={formatPercent(c.humanRequestedRate)} note={of(c.humanRequested)} />
      <Figure
        label="First human reply"
        value={formatDuration(c.medianSecondsToFirstHumanReply)}
        note={c.humanReplied === 0 ? 'no member replied' : `median of ${c.humanReplied.toLocaleString()}`}
      />
      <Figure
        label="Good answers"
        value={rated === 0 ? '—' : formatPercent(ratings.good / rated)}
        note={rated === 0 ? 'none rated' : `${ratings.good.toLocaleString()} good, ${ratings.bad.toLocaleString()} bad`}
      />
      <Figure
        label="Knowledge gaps"
        value={knowledgeGaps.total.toLocaleString()}
        note={knowledgeGaps.total === 1 ? 'question unanswered' : 'questions unanswered'}
      />
    </dl>
  );
}

function ConversationsPerDay({ report }: { report: AnalyticsReport }) {
  const { perDay, channels } = report;
  const busiest = perDay.reduce((best, day) => (day.total > best.total ? day : best), perDay[0]!);
  const total = perDay.reduce((sum, day) => sum + day.total, 0);
  return (
    <>
      <BarChart
        summary={`Conversations per day, by channel: ${total.toLocaleString()} in all, the most on ${formatDay(busiest.date)} (${busiest.total.toLocaleString()}).`}
        categories={perDay.map((day) => formatShortDay(day.date))}
        series={channels.map((channel) => ({
          label: channelLabel(channel),
          values: perDay.map((day) => day.byChannel[channel] ?? 0),
          color: channelColor(channel),
        }))}
        stacked
        legend
        height={280}
      />
      <details className="chart-figures">
        <summary>Figures by day</summary>
        <div className="table-wrap">
          <table className="table table-compact">
            <caption className="visually-hidden">Conversations per day and channel</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                {channels.map((channel) => (
                  <th scope="col" key={channel}>
                    {channelLabel(channel)}
                  </th>
                ))}
                <th scope="col">All</th>
              </tr>
            </thead>
            <tbody>
              {perDay.map((day) => (
                <tr key={day.date}>
                  <th scope="row" className="nowrap">
                    {formatDay(day.date)}
                  </th>
                  {channels.map((channel) => (
                    <td key={channel}>{(day.byChannel[channel] ?? 0).toLocaleString()}</td>
                  ))}
                  <td>{day.total.toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </>
  );
}

function Ratings({ good, bad }: { good: number; bad: number }) {
  if (good + bad === 0) return <p className="muted">No answer was rated in this range.</p>;
  return (
    <>
      <BarChart
        summary={`Answer ratings: ${good.toLocaleString()} good, ${bad.toLocaleString()} bad.`}
        categories={['Answers']}
        series={[
          { label: 'Good', values: [good], color: '--success' },
          { label: 'Bad', values: [bad], color: '--danger' },
        ]}
        horizontal
        stacked
        legend
        height={120}
      />
      <p className="small">
        {good.toLocaleString()} rated good, {bad.toLocaleString()} rated bad.
      </p>
    </>
  );
}

function CitedDatasources({ report }: { report: AnalyticsReport }) {
  const cited = report.topDatasources;
  if (cited.length === 0) return <p className="muted">No answer cited a datasource in this range.</p>;
  return (
    <>
      <BarChart
        summary={`The datasources cited most: ${cited.map((one) => `${one.name} (${one.citations})`).join(', ')}.`}
        categories={cited.map((one) => one.name)}
        series={[{ label: 'Citations', values: cited.map((one) => one.citations), color: '--chart-1' }]}
        horizontal
        tickChars={18}
        height={48 + 30 * cited.length}
      />
      <ol className="cited-list">
        {cited.map((one) => (
          <li key={one.datasourceId}>
            {one.datastoreId === null ? (
              <span className="break">{one.name}</span>
            ) : (
              <Link href={`/datastores/${encodeURIComponent(one.datastoreId)}`} className="break">
                {one.name}
              </Link>
            )}
            <span className="muted small nowrap">
              {one.citations.toLocaleString()} {one.citations === 1 ? 'answer' : 'answers'}
            </span>
          </li>
        ))}
      </ol>
    </>
  );
}
