import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api';
import { useWorkspaceId } from '../session/session';

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface IssuedKey extends ApiKey {
  /** The whole key: in this answer only. */
  key: string;
}

export const keyKeys = {
  all: (workspaceId: string) => ['workspaces', workspaceId, 'keys'] as const,
};

export function useKeys() {
  const workspaceId = useWorkspaceId();
  return useQuery({ queryKey: keyKeys.all(workspaceId), queryFn: () => api<ApiKey[]>('/keys') });
}

export function useCreateKey() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { name?: string }) => api<IssuedKey>('/keys', { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keyKeys.all(workspaceId) }),
  });
}

export function useDeleteKey() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<ApiKey>(`/keys/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keyKeys.all(workspaceId) }),
  });
}
