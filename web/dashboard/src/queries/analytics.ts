import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AnalyticsBody } from '../../../../src/contract/analytics';
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

/** GET /analytics (README, "Analytics"). */
export type AnalyticsReport = AnalyticsBody;

export type KnowledgeGap = AnalyticsReport['knowledgeGaps']['items'][number];

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
