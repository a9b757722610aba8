import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api';
import type { Role } from '../session/access-tokens';

export interface User {
  id: string;
  email: string;
  name: string;
}

export interface Membership {
  workspaceId: string;
  workspaceName: string;
  role: Role;
  /** The person as a member of that workspace: assignee and sender ids name members. */
  memberId: string;
}

export interface Me {
  user: User;
  memberships: Membership[];
}

export interface SetupStatus {
  setupRequired: boolean;
  signUpOpen: boolean;
}

export interface BrowserSession {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  userAgent: string | null;
  current: boolean;
}

export interface Invitation {
  email: string;
  workspaceName: string;
  role: Role;
  /** The signed-in person is the one invited: accepting needs no password. */
  signedIn: boolean;
}

/** The signed-in person and their sessions: not tied to a workspace, so keyed apart from workspace data. */
export const sessionKeys = {
  all: ['session'] as const,
  me: ['session', 'me'] as const,
  setupStatus: ['session', 'setup-status'] as const,
  sessions: ['session', 'sessions'] as const,
  invitation: (token: string) => ['session', 'invitation', token] as const,
};

/** The cookie's user, or a 401 ApiError when nobody is signed in. */
export const useMe = () =>
  useQuery({ queryKey: sessionKeys.me, queryFn: () => api<Me>('/me', { anonymous: true }), staleTime: 60_000 });

export const useSetupStatus = () =>
  useQuery({
    queryKey: sessionKeys.setupStatus,
    queryFn: () => api<SetupStatus>('/auth/setup-status', { anonymous: true }),
  });

export const useInvitation = (token: string) =>
  useQuery({
    queryKey: sessionKeys.invitation(token),
    queryFn: () => api<Invitation>(`/auth/invitations/${encodeURIComponent(token)}`, { anonymous: true }),
    enabled: token !== '',
  });

export const useBrowserSessions = () =>
  useQuery({ queryKey: sessionKeys.sessions, queryFn: () => api<BrowserSession[]>('/auth/sessions', { anonymous: true }) });

/** Every way of getting a session cookie answers `{user}`; what the session knew before is stale then. */
function useSessionStart<Body>(path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) => api<{ user: User }>(path, { method: 'POST', body, anonymous: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}

export const useSignIn = () => useSessionStart<{ email: string; password: string }>('/auth/sign-in');
export const useSetup = () => useSessionStart<{ token: string; email: string; name: string; password: string }>('/auth/setup');
export const useSignUp = () => useSessionStart<{ email: string; name: string; password: string; workspaceName: string }>('/auth/sign-up');
export const useAcceptInvitation = () => useSessionStart<{ token: string; name?: string; password?: string }>('/auth/invitations/accept');
export const useResetPassword = () => useSessionStart<{ token: string; password: string }>('/auth/password-reset');

/** How "Forgot password?" goes on: by e-mail, or (a server without e-mail) through an owner. The same for every address. */
export interface ResetRequested {
  delivery: 'email' | 'ask-an-owner';
}

export const useRequestPasswordReset = () =>
  useMutation({
    mutationFn: (email: string) => api<ResetRequested>('/auth/password-reset/request', { method: 'POST', body: { email }, anonymous: true }),
  });

export function useUpdateMe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { name?: string; password?: string; currentPassword?: string }) =>
      api<{ user: User }>('/me', { method: 'PATCH', body, anonymous: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionKeys.me }),
  });
}

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/auth/sessions/${encodeURIComponent(id)}`, { method: 'DELETE', anonymous: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionKeys.sessions }),
  });
}
