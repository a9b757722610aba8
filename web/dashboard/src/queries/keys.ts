import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiKeyBody, IssuedKeyBody, NewKeyBody } from '../../../../src/contract/keys';
import { api } from '../api';
import { useWorkspaceId } from '../session/session';

export type ApiKey = ApiKeyBody;

/** A new key: the whole key is in this answer only. */
export type IssuedKey = IssuedKeyBody;

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
    mutationFn: (body: NewKeyBody) => api<IssuedKey>('/keys', { method: 'POST', body }),
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
