import type { Model } from './models';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api';
import { useWorkspaceId } from '../session/session';

export type Visibility = 'public' | 'private';

export type LeadFieldRule = 'off' | 'optional' | 'required';

/** How the agent's chat widget looks and behaves, as GET /agents/{id} answers it (defaults filled in). */
export interface WidgetSettings {
  /** `#rrggbb` */
  color: string;
  position: 'left' | 'right';
  theme: 'light' | 'dark' | 'auto';
  /** null: the agent's name. */
  title: string | null;
  /** null: the agent's icon. */
  avatarUrl: string | null;
  greeting: string;
  initialMessages: string[];
  suggestedQuestions: string[];
  language: 'auto' | 'en' | 'fr' | 'ar';
  humanHandoff: boolean;
  ratings: boolean;
  leadForm: {
    mode: 'off' | 'before-first-question' | 'after-first-answer';
    name: LeadFieldRule;
    email: LeadFieldRule;
    phone: LeadFieldRule;
  };
  hideBranding: boolean;
}

/** A change to the widget settings: any field, the lead form's field by field. */
export type WidgetSettingsPatch = Partial<Omit<WidgetSettings, 'leadForm'>> & { leadForm?: Partial<WidgetSettings['leadForm']> };

export interface Agent {
  id: string;
  name: string;
  description: string;
  modelName: string;
  temperature: number;
  visibility: Visibility;
  systemPrompt: string;
  userPrompt: string;
  iconUrl: string | null;
  handle: string | null;
  allowedOrigins: string[];
  widget: WidgetSettings;
  /** false: the agent goes quiet once a person is asked for; true: it answers until a member takes over. */
  keepAnsweringUntilTakenOver: boolean;
  tools: { type: 'datastore'; datastoreId: string }[];
  createdAt: string;
  updatedAt: string;
}

/** `systemPrompt: null` clears it (the agent then reads back `''`). */
export type AgentInput = Partial<
  Pick<Agent, 'name' | 'description' | 'modelName' | 'temperature' | 'visibility' | 'userPrompt' | 'allowedOrigins' | 'keepAnsweringUntilTakenOver' | 'tools'>
> & { systemPrompt?: string | null; widget?: WidgetSettingsPatch };

export const agentKeys = {
  all: (workspaceId: string) => ['workspaces', workspaceId, 'agents'] as const,
  detail: (workspaceId: string, id: string) => [...agentKeys.all(workspaceId), id] as const,
};

const agentPath = (id: string) => `/agents/${encodeURIComponent(id)}`;

export function useAgents() {
  const workspaceId = useWorkspaceId();
  return useQuery({ queryKey: agentKeys.all(workspaceId), queryFn: () => api<Agent[]>('/agents') });
}

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
export interface AnswerSource {
  chunk_id: string;
  datasource_id: string;
  datasource_name: string;
  datasource_type: string;
  source_url: string | null;
  page_number?: number;
  total_pages?: number;
  score: number;
  text: string;
}

export interface AgentAnswer {
  answer?: string;
  conversationId: string;
  visitorId: string;
  messageId: string;
  sources?: AnswerSource[];
  /** Which model answered (for members and keys only). */
  model?: Pick<Model, 'name' | 'provider' | 'model' | 'providerName'>;
}

/** A question from the playground; overrides apply to this question only. */
export interface PlaygroundQuestion {
  query: string;
  conversationId?: string;
  modelName?: string;
  temperature?: number;
}
