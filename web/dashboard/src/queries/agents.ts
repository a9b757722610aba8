import type { AgentBody, AgentInputBody } from '../../../../src/contract/agents';
import type { AnswerBody, AnswerSourceBody, QuestionBody } from '../../../../src/contract/answers';
import type { WidgetSettingsBody, WidgetSettingsPatchBody } from '../../../../src/contract/widget-settings';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api';
import { useWorkspaceId } from '../session/session';

/** How the agent's chat widget looks and behaves, as GET /agents/{id} answers it (defaults filled in). */
export type WidgetSettings = WidgetSettingsBody;

export type LeadFieldRule = WidgetSettings['leadForm']['name'];

/** A change to the widget settings: any field, the lead form's field by field. */
export type WidgetSettingsPatch = WidgetSettingsPatchBody;

export type Agent = AgentBody;

export type Visibility = Agent['visibility'];

/** What POST and PATCH /agents take; `systemPrompt: null` clears it (the agent then reads back `''`). */
export type AgentInput = AgentInputBody;

export const agentKeys = {
  all: (workspaceId: string) => ['workspaces', workspaceId, 'agents'] as const,
  detail: (workspaceId: string, id: string) => [...agentKeys.all(workspaceId), id] as const,
};

const agentPath = (id: string) => `/agents/${encodeURIComponent(id)}`;

/** The workspace's agents (also fetched before the agents page mounts: first-screen.ts). */
export const agentListQuery = (workspaceId: string) => queryOptions({ queryKey: agentKeys.all(workspaceId), queryFn: () => api<Agent[]>('/agents') });

export const useAgents = () => useQuery(agentListQuery(useWorkspaceId()));

export function useAgent(id: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({ queryKey: agentKeys.detail(workspaceId, id), queryFn: () => api<Agent>(agentPath(id)) });
}

export function useCreateAgent() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AgentInput) => api<Agent>('/agents', { method: 'POST', body }),
    onSuccess: (agent) => {
      queryClient.setQueryData(agentKeys.detail(workspaceId, agent.id), agent);
      return queryClient.invalidateQueries({ queryKey: agentKeys.all(workspaceId), exact: true });
    },
  });
}

export function useUpdateAgent(id: string) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AgentInput) => api<Agent>(agentPath(id), { method: 'PATCH', body }),
    onSuccess: (agent) => {
      queryClient.setQueryData(agentKeys.detail(workspaceId, id), agent);
      return queryClient.invalidateQueries({ queryKey: agentKeys.all(workspaceId), exact: true });
    },
  });
}

export function useDeleteAgent() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<Agent>(agentPath(id), { method: 'DELETE' }),
    onSuccess: (agent) => {
      queryClient.removeQueries({ queryKey: agentKeys.detail(workspaceId, agent.id) });
      return queryClient.invalidateQueries({ queryKey: agentKeys.all(workspaceId), exact: true });
    },
  });
}

/** One source of an answer: a passage it cites; its `[n]` is the n-th source. */
export type AnswerSource = AnswerSourceBody;

/** An answer to a question, as the playground gets it streamed. */
export type AgentAnswer = AnswerBody;

/** A question from the playground; overrides apply to this question only. */
export type PlaygroundQuestion = Pick<QuestionBody, 'query' | 'conversationId' | 'modelName' | 'temperature'>;
