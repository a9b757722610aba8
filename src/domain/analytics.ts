import type { AgentRecord, AnalyticsScope, CitedDatasource, DailyConversations, Store } from '../store/store.js';
import { invalid } from '../errors.js';
import { normalizeChannel, type Channel, type ChannelInput } from './channels.js';
import { findInWorkspace } from './scoped.js';
import { KNOWLEDGE_GAP_LIMIT, TOP_DATASOURCES } from '../contract/analytics.js';

/** Days a report may span at most: a year, leap day included. */
export const MAX_RANGE_DAYS = 366;
/** Days a report spans when no `from` is given: the last 30, today included. */
export const DEFAULT_RANGE_DAYS = 30;

const DAY_MS = 86_400_000;

export interface AnalyticsQuery {
  /** First day, YYYY-MM-DD (UTC); `DEFAULT_RANGE_DAYS` before `to` when absent. */
  from?: string;
  /** Last day, included, YYYY-MM-DD (UTC); today when absent. */
  to?: string;
  agentId?: string;
  channel?: ChannelInput;
  /** true: the dashboard playground's conversations (the team's own tests) count too. */
  includePlayground?: boolean;
}

export interface ConversationAnalytics {
  /** Conversations started in the range. */
  total: number;
  /** Of them, those now RESOLVED. */
  resolved: number;
  /** Of them, those that asked for a person at any time, whatever they are now (taken over, resolved). */
  humanRequested: number;
  /** resolved / total; null without conversations. */
  resolutionRate: number | null;
  humanRequestedRate: number | null;
  /** Their messages from visitors, the agent and members. */
  messages: number;
  messagesPerConversation: number | null;
  /** Conversations in which a member replied to the visitor. */
  humanReplied: number;
  /** Median seconds from the visitor's first message to the first member reply; null without replies. */
  medianSecondsToFirstHumanReply: number | null;
}

export interface DayOfConversations {
  /** YYYY-MM-DD (UTC). */
  date: string;
  total: number;
  /** Per channel with conversations that day. */
  byChannel: Record<string, number>;
}

export interface KnowledgeGapItem {
  question: string;
  count: number;
  firstAskedAt: string;
  lastAskedAt: string;
  /** The conversation it was last asked in. */
  conversationId: string;
  /** The agent asked, with the datastores a document answering it would go into; null once deleted. */
  agent: { id: string; name: string; datastoreIds: string[] } | null;
}

export interface AnalyticsReport {
  from: string;
  to: string;
  agentId: string | null;
  channel: Channel | null;
  includePlayground: boolean;
  conversations: ConversationAnalytics;
  /** Every day of the range, oldest first, days without conversations included. */
  perDay: DayOfConversations[];
  /** The channels of the range's conversations, the busiest first. */
  channels: string[];
  /** The channels of the range's conversations whatever the channel filter, by name: what it can pick. */
  availableChannels: string[];
  ratings: { good: number; bad: number };
  topDatasources: CitedDatasource[];
  knowledgeGaps: { total: number; items: KnowledgeGapItem[] };
}

const dateOf = (time: number): string => new Date(time).toISOString().slice(0, 10);
const timeOf = (date: string): number => Date.parse(`${date}T00:00:00.000Z`);
const ratio = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);

/**
 * A workspace's analytics over a range of UTC days. Conversation figures are about the conversations started
 * in the range, answer figures (ratings, datasources cited, knowledge gaps) about the agent answers written in
 * it; the agent and channel narrowing both are the conversation's.
 */
export class AnalyticsService {
  constructor(
    private readonly store: Store,
    /** Today's date, YYYY-MM-DD (UTC): the default end of a range. */
    private readonly today: () => string = () => dateOf(Date.now()),
  ) {}

  async report(workspaceId: string, query: AnalyticsQuery): Promise<AnalyticsReport> {
    const { from, to } = this.range(query);
    if (query.agentId !== undefined) await findInWorkspace(this.store.agents, 'Agent', workspaceId, query.agentId);
    const channel = query.channel === undefined ? undefined : normalizeChannel(query.channel);
    const scope: AnalyticsScope = {
      workspaceId,
      from: new Date(timeOf(from)).toISOString(),
      to: new Date(timeOf(to) + DAY_MS).toISOString(),
      agentId: query.agentId,
      channel,
      includePlayground: query.includePlayground === true,
    };
    const { analytics } = this.store;
    const [daily, availableChannels, figures, ratings, topDatasources, gaps, agents] = await Promise.all([
      analytics.conversationsPerDay(scope),
      analytics.channelsInRange(scope),
      analytics.conversationFigures(scope),
      analytics.answerRatings(scope),
      analytics.citedDatasources(scope, TOP_DATASOURCES),
      analytics.knowledgeGaps(scope, KNOWLEDGE_GAP_LIMIT),
      this.store.agents.list(workspaceId),
    ]);
    const agentsById = new Map<string, AgentRecord>(agents.map((agent) => [agent.id, agent]));
    const byDay = new Map<string, DailyConversations[]>();
    for (const row of daily) byDay.set(row.day, [...(byDay.get(row.day) ?? []), row]);
    return {
      from,
      to,
      agentId: query.agentId ?? null,
      channel: channel ?? null,
      includePlayground: scope.includePlayground === true,
      conversations: {
        total: figures.conversations,
        resolved: figures.resolved,
        humanRequested: figures.humanRequested,
        resolutionRate: ratio(figures.resolved, figures.conversations),
        humanRequestedRate: ratio(figures.humanRequested, figures.conversations),
        messages: figures.messages,
        messagesPerConversation: ratio(figures.messages, figures.conversations),
        humanReplied: figures.humanReplied,
        medianSecondsToFirstHumanReply: figures.medianSecondsToHumanReply,
      },
      perDay: everyDay(from, to).map((date) => {
        const ofDay = byDay.get(date) ?? [];
        return {
          date,
          total: ofDay.reduce((sum, row) => sum + row.conversations, 0),
          byChannel: Object.fromEntries(ofDay.map((row) => [row.channel, row.conversations])),
        };
      }),
      channels: busiestFirst(daily),
      availableChannels,
      ratings,
      topDatasources,
      knowledgeGaps: {
        total: gaps.total,
        items: gaps.groups.map((group) => {
          const agent = group.agentId === null ? undefined : agentsById.get(group.agentId);
          return {
            question: group.question,
            count: group.count,
            firstAskedAt: group.firstAskedAt,
            lastAskedAt: group.lastAskedAt,
            conversationId: group.conversationId,
            agent: agent === undefined ? null : { id: agent.id, name: agent.name, datastoreIds: agent.datastoreIds },
          };
        }),
      },
    };
  }

  /** The range asked for, with its defaults, checked: `from` not after `to`, at most a year. */
  private range(query: AnalyticsQuery): { from: string; to: string } {
    const to = checkedDate(query.to ?? this.today(), 'to');
    const from = checkedDate(query.from ?? dateOf(timeOf(to) - (DEFAULT_RANGE_DAYS - 1) * DAY_MS), 'from');
    const days = (timeOf(to) - timeOf(from)) / DAY_MS + 1;
    if (days < 1) throw invalid(`The range starts (from ${from}) after it ends (to ${to})`, [{ field: 'from', message: 'must not be after to' }]);
    if (days > MAX_RANGE_DAYS) {
      throw invalid(`The range spans ${days} days; at most ${MAX_RANGE_DAYS}`, [
        { field: 'from', message: `must be at most ${MAX_RANGE_DAYS} days before to` },
      ]);
    }
    return { from, to };
  }
}

/** `date` if it is a calendar day written YYYY-MM-DD (2030-02-30 is not: Date.parse would roll it over). */
function checkedDate(date: string, field: 'from' | 'to'): string {
  const time = /^\d{4}-\d{2}-\d{2}$/.test(date) ? timeOf(date) : Number.NaN;
  if (Number.isNaN(time) || dateOf(time) !== date) {
    throw invalid(`${field} is not a date`, [{ field, message: 'must be a date, YYYY-MM-DD' }]);
  }
  return date;
}

function everyDay(from: string, to: string): string[] {
  const days: string[] = [];
  for (let time = timeOf(from); time <= timeOf(to); time += DAY_MS) days.push(dateOf(time));
  return days;
}

/** Channels by their conversations in the range, most first; ties by name. */
function busiestFirst(daily: readonly { channel: string; conversations: number }[]): string[] {
  const totals = new Map<string, number>();
  for (const row of daily) totals.set(row.channel, (totals.get(row.channel) ?? 0) + row.conversations);
  return [...totals.entries()].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0)).map(([channel]) => channel);
}
