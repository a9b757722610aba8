import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api';
import { useWorkspaceId } from '../session/session';
import { sessionKeys } from './session';

export const NOTIFYING_EVENTS = ['conversation-resolved', 'human-requested'] as const;
export type NotifyingEvent = (typeof NOTIFYING_EVENTS)[number];

export interface Audience {
  admins: boolean;
  customer: boolean;
}

export interface RateLimits {
  keyPerMinute: number;
  ipPerMinute: number;
  visitorPerMinute: number;
}

export interface WorkspaceSettings {
  name: string;
  notifications: Record<NotifyingEvent, Audience>;
  emailEnabled: boolean;
  rateLimits: RateLimits;
}

export interface WorkspaceChanges {
  name?: string;
  notifications?: Partial<Record<NotifyingEvent, Partial<Audience>>>;
  rateLimits?: Partial<Record<keyof RateLimits, number | null>>;
}

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
