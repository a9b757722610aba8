import { useQuery } from '@tanstack/react-query';
import { api } from '../api';
import { useWorkspaceId } from '../session/session';

export interface Model {
  name: string;
  provider: string;
}

export const modelKeys = {
  all: (workspaceId: string) => ['workspaces', workspaceId, 'models'] as const,
};

/** The model names an agent may use; they change only when the server is reconfigured. */
export function useModels() {
  const workspaceId = useWorkspaceId();
  return useQuery({ queryKey: modelKeys.all(workspaceId), queryFn: () => api<Model[]>('/models'), staleTime: 10 * 60_000 });
}
