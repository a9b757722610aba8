import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api';
import type { Role } from '../session/access-tokens';
import { useWorkspaceId } from '../session/session';

export interface Member {
  id: string;
  email: string;
  name: string;
  role: Role;
  status: 'active' | 'invited';
  createdAt: string;
}

export interface InvitedMember extends Member {
  /** The single-use link, shown only in this answer. */
  invitationUrl: string;
  invitationExpiresAt: string;
  /** The link went out by e-mail too. */
  emailed: boolean;
}

export interface MemberPasswordReset extends Member {
  /** The single-use link that sets a new password, shown only in this answer. */
  passwordResetUrl: string;
  passwordResetExpiresAt: string;
}

export const memberKeys = {
  all: (workspaceId: string) => ['workspaces', workspaceId, 'members'] as const,
};

const memberPath = (id: string) => `/members/${encodeURIComponent(id)}`;

export function useMembers() {
  const workspaceId = useWorkspaceId();
  return useQuery({ queryKey: memberKeys.all(workspaceId), queryFn: () => api<Member[]>('/members') });
}

function useMemberMutation<Input, Output>(send: (input: Input) => Promise<Output>) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: send, onSuccess: () => queryClient.invalidateQueries({ queryKey: memberKeys.all(workspaceId) }) });
}

export const useInviteMember = () =>
  useMemberMutation((body: { email: string; role: Role; name?: string }) => api<InvitedMember>('/members', { method: 'POST', body }));

export const useChangeRole = () =>
  useMemberMutation(({ id, role }: { id: string; role: Role }) => api<Member>(memberPath(id), { method: 'PATCH', body: { role } }));

export const useRemoveMember = () => useMemberMutation((id: string) => api<Member>(memberPath(id), { method: 'DELETE' }));

export const useReinviteMember = () =>
  useMemberMutation((id: string) => api<InvitedMember>(`${memberPath(id)}/invitation`, { method: 'POST' }));

export const useMemberPasswordReset = () =>
  useMemberMutation((id: string) => api<MemberPasswordReset>(`${memberPath(id)}/password-reset`, { method: 'POST' }));
