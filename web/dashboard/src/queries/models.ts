import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api';
import { useWorkspaceId } from '../session/session';

export type ServingKind = 'openai' | 'openai-compatible' | 'anthropic' | 'local';
export type ProviderKind = Exclude<ServingKind, 'local'>;

/** A model name and what serves it in this workspace (GET /models). */
export interface Model {
  name: string;
  provider: ServingKind;
  /** The provider's model id; `local-extractive` for the built-in model. */
  model: string;
  providerId: string | null;
  providerName: string | null;
  /** What serves the name when the workspace chooses nothing: the server's configuration. */
  operatorDefault: { provider: ServingKind; model: string };
}

export interface ModelProvider {
  id: string;
  name: string;
  kind: ProviderKind;
  baseUrl: string | null;
  apiKeyHint: string | null;
  keyReadable: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface ProviderInput {
  name?: string;
  kind?: ProviderKind;
  baseUrl?: string | null;
  apiKey?: string | null;
}

export interface ProviderTest {
  ok: boolean;
  code: string;
  message: string;
  status: number | null;
  models: string[];
  durationMs: number;
}

export const modelKeys = {
  all: (workspaceId: string) => ['workspaces', workspaceId, 'models'] as const,
  providers: (workspaceId: string) => ['workspaces', workspaceId, 'model-providers'] as const,
};

const providerPath = (id: string) => `/model-providers/${encodeURIComponent(id)}`;

/** The model names an agent may use, with what serves each. */
export function useModels() {
  const workspaceId = useWorkspaceId();
  return useQuery({ queryKey: modelKeys.all(workspaceId), queryFn: () => api<Model[]>('/models'), staleTime: 60_000 });
}

/** `enabled: false` for members, whom the API refuses (only owners and admins manage providers). */
export function useModelProviders({ enabled = true } = {}) {
  const workspaceId = useWorkspaceId();
  return useQuery({ queryKey: modelKeys.providers(workspaceId), queryFn: () => api<ModelProvider[]>('/model-providers'), enabled });
}

/** A change to providers or routes: both lists may show it. */
function useModelsMutation<Input, Output>(send: (input: Input) => Promise<Output>) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: modelKeys.all(workspaceId) }),
        queryClient.invalidateQueries({ queryKey: modelKeys.providers(workspaceId) }),
      ]);
    },
  });
}

export const useCreateProvider = () => useModelsMutation((body: ProviderInput) => api<ModelProvider>('/model-providers', { method: 'POST', body }));

export const useUpdateProvider = (id: string) =>
  useModelsMutation((body: ProviderInput) => api<ModelProvider>(providerPath(id), { method: 'PATCH', body }));

export const useDeleteProvider = () => useModelsMutation((id: string) => api<ModelProvider>(providerPath(id), { method: 'DELETE' }));

/** A test changes nothing, so it invalidates nothing. */
export const useTestProvider = (id: string) => useMutation({ mutationFn: () => api<ProviderTest>(`${providerPath(id)}/test`, { method: 'POST' }) });

export const useSetRoute = () =>
  useModelsMutation(({ name, providerId, model }: { name: string; providerId: string; model: string }) =>
    api<Model>(`/model-routes/${encodeURIComponent(name)}`, { method: 'PUT', body: { providerId, model } }),
  );

export const useClearRoute = () => useModelsMutation((name: string) => api<Model>(`/model-routes/${encodeURIComponent(name)}`, { method: 'DELETE' }));
