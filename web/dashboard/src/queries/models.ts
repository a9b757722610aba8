import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ModelBody, ModelProviderBody, ModelRouteBody, NewProviderBody, ProviderTestBody } from '../../../../src/contract/models';
import { api } from '../api';
import { useWorkspaceId } from '../session/session';

/** A model name and what serves it in this workspace (GET /models). */
export type Model = ModelBody;

export type ServingKind = Model['provider'];

export type ModelProvider = ModelProviderBody;

export type ProviderKind = ModelProvider['kind'];

/**
 * What the provider form sends, to create (name and kind needed) or to change (ProviderChangesBody: the kind
 * stays): one type, as the form serves both.
 */
export type ProviderInput = Partial<NewProviderBody>;

export type ProviderTest = ProviderTestBody;

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
  useModelsMutation(({ name, providerId, model }: ModelRouteBody & { name: string }) =>
    api<Model>(`/model-routes/${encodeURIComponent(name)}`, { method: 'PUT', body: { providerId, model } }),
  );

export const useClearRoute = () => useModelsMutation((name: string) => api<Model>(`/model-routes/${encodeURIComponent(name)}`, { method: 'DELETE' }));
