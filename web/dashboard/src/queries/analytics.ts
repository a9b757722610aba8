import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../api';
import { useWorkspaceId } from '../session/session';

/** What a report is about; absent fields take the API's defaults (the last 30 days, every agent and channel). */
export interface AnalyticsFilter {
  from?: string;
  to?: string;
  agentId?: string;
  channel?: string;
  /** 'true': the playground's conversations (the team's tests) count too. */
  includePlayground?: 'true';
}

export interface KnowledgeGap {
  question: string;
  count: number;
  firstAskedAt: string;
  lastAskedAt: string;
  conversationId: string;
  agent: { id: string; name: string; datastoreIds: string[] } | null;
}

/** GET /analytics (README, "Analytics"). */
export interface AnalyticsReport {
  from: string;
  to: string;
  agentId: string | null;
  channel: string | null;
  includePlayground: boolean;
  conversations: {
    total: number;
    resolved: number;
    /** Those that asked for a person at any time, whatever they are now. */
    humanRequested: number;
    resolutionRate: number | null;
    humanRequestedRate: number | null;
    messages: number;
    messagesPerConversation: number | null;
    humanReplied: number;
    medianSecondsToFirstHumanReply: number | null;
  };
  perDay: { date: string; total: number; byChannel: Record<string, number> }[];
  channels: string[];
  /** The channels of the range's conversations whatever the channel filter: what it can pick. */
  availableChannels: string[];
  ratings: { good: number; bad: number };
  topDatasources: { datasourceId: string; name: string; datastoreId: string | null; citations: number }[];
  knowledgeGaps: { total: number; items: KnowledgeGap[] };
}

export const analyticsKeys = {
  all: (workspaceId: string) => ['workspaces', workspaceId, 'analytics'] as const,
  report: (workspaceId: string, filter: AnalyticsFilter) => [...analyticsKeys.all(workspaceId), filter] as const,
};

export function useAnalytics(filter: AnalyticsFilter) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: analyticsKeys.report(workspaceId, filter),
    queryFn: ({ signal }) => {
      const query = new URLSearchParams(Object.entries(filter).filter((entry): entry is [string, string] => entry[1] !== undefined));
      return api<AnalyticsReport>(`/analytics${query.size === 0 ? '' : `?${query}`}`, { signal });
    },
    // Changing the range keeps the last report on screen until the next one arrives.
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    retry: false,
  });
}
