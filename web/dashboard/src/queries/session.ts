import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api';
import type {
  AccountChangesBody,
  InvitationAcceptanceBody,
  InvitationBody,
  MeAnswerBody,
  NewPasswordBody,
  ResetRequestedBody,
  SessionBody,
  SetupBody,
  SetupStatusBody,
  SignInBody,
  SignUpBody,
  UserAnswerBody,
} from '../../../../src/contract/auth';

export type User = MeAnswerBody['user'];

/** The person as a member of a workspace: `memberId` is what assignee and sender ids name. */
export type Membership = MeAnswerBody['memberships'][number];

export type Me = MeAnswerBody;

export type SetupStatus = SetupStatusBody;

export type BrowserSession = SessionBody;

/** An invitation read by its link: `signedIn` when the invited person is the one signed in (no password needed). */
export type Invitation = InvitationBody;

/** The signed-in person and their sessions: not tied to a workspace, so keyed apart from workspace data. */
export const sessionKeys = {
  all: ['session'] as const,
  me: ['session', 'me'] as const,
  setupStatus: ['session', 'setup-status'] as const,
  sessions: ['session', 'sessions'] as const,
  invitation: (token: string) => ['session', 'invitation', token] as const,
};

/** The cookie's user, or a 401 ApiError when nobody is signed in. */
export const meQuery = queryOptions({ queryKey: sessionKeys.me, queryFn: () => api<Me>('/me', { anonymous: true }), staleTime: 60_000 });

export const useMe = () => useQuery(meQuery);

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
    mutationFn: (body: Body) => api<UserAnswerBody>(path, { method: 'POST', body, anonymous: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}

export const useSignIn = () => useSessionStart<SignInBody>('/auth/sign-in');
export const useSetup = () => useSessionStart<SetupBody>('/auth/setup');
export const useSignUp = () => useSessionStart<SignUpBody>('/auth/sign-up');
export const useAcceptInvitation = () => useSessionStart<InvitationAcceptanceBody>('/auth/invitations/accept');
export const useResetPassword = () => useSessionStart<NewPasswordBody>('/auth/password-reset');

/** How "Forgot password?" goes on: by e-mail, or (a server without e-mail) through an owner. The same for every address. */
export type ResetRequested = ResetRequestedBody;

export const useRequestPasswordReset = () =>
  useMutation({
    mutationFn: (email: string) => api<ResetRequested>('/auth/password-reset/request', { method: 'POST', body: { email }, anonymous: true }),
  });

export function useUpdateMe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AccountChangesBody) => api<UserAnswerBody>('/me', { method: 'PATCH', body, anonymous: true }),
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
