import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api';
import type { InvitedBody, MemberBody, NewMemberBody, PasswordResetBody, RoleChangeBody } from '../../../../src/contract/members';
import { useWorkspaceId } from '../session/session';

export type Member = MemberBody;

/** An invited member: the single-use link is in this answer only. */
export type InvitedMember = InvitedBody;

/** A member with a new password-reset link, in this answer only. */
export type MemberPasswordReset = PasswordResetBody;

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

export const useInviteMember = () => useMemberMutation((body: NewMemberBody) => api<InvitedMember>('/members', { method: 'POST', body }));

export const useChangeRole = () =>
  useMemberMutation(({ id, role }: { id: string } & RoleChangeBody) => api<Member>(memberPath(id), { method: 'PATCH', body: { role } }));

export const useRemoveMember = () => useMemberMutation((id: string) => api<Member>(memberPath(id), { method: 'DELETE' }));

export const useReinviteMember = () => useMemberMutation((id: string) => api<InvitedMember>(`${memberPath(id)}/invitation`, { method: 'POST' }));

export const useMemberPasswordReset = () =>
  useMemberMutation((id: string) => api<MemberPasswordReset>(`${memberPath(id)}/password-reset`, { method: 'POST' }));
