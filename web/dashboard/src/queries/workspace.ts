import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { NOTIFYING_EVENTS, type NotifyingEvent } from '../../../../src/contract/events';
import type { AudienceBody, RateLimitsBody, WorkspaceChangesBody, WorkspaceSettingsBody } from '../../../../src/contract/workspace';
import { api } from '../api';
import { useWorkspaceId } from '../session/session';
import { sessionKeys } from './session';

export { NOTIFYING_EVENTS, type NotifyingEvent };

/** Who is e-mailed of a conversation event. */
export type Audience = AudienceBody;

export type RateLimits = RateLimitsBody;

export type WorkspaceSettings = WorkspaceSettingsBody;

/** A change: what is left out keeps its value; a rate limit set to null returns to the server default. */
export type WorkspaceChanges = WorkspaceChangesBody;

export const workspaceKeys = {
  settings: (workspaceId: string) => ['workspaces', workspaceId, 'settings'] as const,
};

/** `enabled: false` for members, whom the API refuses (only owners and admins manage settings). */
export function useWorkspaceSettings({ enabled = true } = {}) {
  const workspaceId = useWorkspaceId();
  return useQuery({ queryKey: workspaceKeys.settings(workspaceId), queryFn: () => api<WorkspaceSettings>('/workspace/settings'), enabled });
}

export function useUpdateWorkspaceSettings() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: WorkspaceChanges) => api<WorkspaceSettings>('/workspace/settings', { method: 'PATCH', body }),
    onSuccess: (settings) => {
      queryClient.setQueryData(workspaceKeys.settings(workspaceId), settings);
      // The workspace's name shows in the switcher, which reads the memberships.
      return queryClient.invalidateQueries({ queryKey: sessionKeys.me });
    },
  });
}
