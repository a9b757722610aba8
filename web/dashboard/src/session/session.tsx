import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { api, ApiError } from '../api';
import { LoadingState, ErrorState } from '../components/query-status';
import { sessionKeys, useMe, type Me, type Membership } from '../queries/session';
import type { AccessTokens, Role } from './access-tokens';
import { signInPath } from './next-path';
import { initialWorkspace, rememberWorkspace } from './workspace-choice';

export interface Session {
  me: Me;
  /** The workspace in use, and the member's role in it. */
  workspace: Membership & { role: Role };
  switchWorkspace(workspaceId: string): void;
  signOut(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (session === null) throw new Error('useSession outside <SessionGate>');
  return session;
}

/** The id of the workspace in use: the first part of every workspace query key. */
export const useWorkspaceId = (): string => useSession().workspace.workspaceId;

/** The signed-in person as a member of the workspace in use (conversations are assigned to members). */
export const useMyMemberId = (): string => useSession().workspace.memberId;

/** Owners and admins manage members, webhooks and workspace settings. */
export const useCanAdminister = (): boolean => useSession().workspace.role !== 'member';

/**
 * Lets its children render only for a signed-in member, with an access token for a workspace: without
 * a session it leads to the sign-in page, which comes back here (`?next=`) after signing in.
 */
export function SessionGate({ tokens, children }: { tokens: AccessTokens; children: ReactNode }) {
  const me = useMe();
  if (me.isPending) return <LoadingState label="Signing you in…" fullPage />;
  if (me.error instanceof ApiError && me.error.status === 401) {
    // The address as the browser has it (still encoded), less the dashboard's base.
    const here = window.location.pathname.replace(/^\/dashboard/, '') + window.location.search;
    return <Redirect to={signInPath(here)} replace />;
  }
  if (me.isError) return <ErrorState error={me.error} retry={() => void me.refetch()} fullPage />;
  return (
    <WorkspaceSession me={me.data} tokens={tokens}>
      {children}
    </WorkspaceSession>
  );
}

function WorkspaceSession({ me, tokens, children }: { me: Me; tokens: AccessTokens; children: ReactNode }) {
  const search = useSearch();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState(() => initialWorkspace(me.memberships, search));
  const workspaceId = chosen !== undefined && me.memberships.some((m) => m.workspaceId === chosen) ? chosen : me.memberships[0]?.workspaceId;

  const grant = useQuery({
    queryKey: [...sessionKeys.all, 'token', workspaceId],
    queryFn: () => tokens.use(workspaceId!),
    enabled: workspaceId !== undefined,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });

  const switchWorkspace = useCallback(
    (id: string) => {
      setChosen(id);
      // A page of one workspace's resource means nothing in another: go to the section's list.
      navigate(`/${window.location.pathname.replace(/^\/dashboard\/?/, '').split('/')[0] || 'agents'}`);
    },
    [navigate],
  );

  const signOut = useCallback(async () => {
    await api<void>('/auth/sign-out', { method: 'POST', anonymous: true }).catch(() => undefined);
    tokens.clear();
    queryClient.clear();
    navigate('/sign-in', { replace: true });
  }, [navigate, queryClient, tokens]);

  useEffect(() => {
    if (workspaceId !== undefined) rememberWorkspace(workspaceId);
  }, [workspaceId]);

  const membership = me.memberships.find((m) => m.workspaceId === workspaceId);
  const session = useMemo<Session | null>(
    () =>
      membership === undefined || grant.data === undefined
        ? null
        : { me, workspace: { ...membership, role: grant.data.role }, switchWorkspace, signOut },
    [me, membership, grant.data, switchWorkspace, signOut],
  );

  if (membership === undefined) return <NoWorkspace email={me.user.email} signOut={signOut} />;
  if (grant.isError) return <ErrorState error={grant.error} retry={() => void grant.refetch()} fullPage />;
  if (session === null) return <LoadingState label="Opening the workspace…" fullPage />;
  return (
    <SessionContext.Provider value={session} key={workspaceId}>
      {children}
    </SessionContext.Provider>
  );
}

function NoWorkspace({ email, signOut }: { email: string; signOut: () => Promise<void> }) {
  return (
    <main className="auth-page" id="main">
      <div className="auth-card">
        <h1>No workspace yet</h1>
        <p>
          You are signed in as <strong>{email}</strong>, but you are not a member of any workspace. Ask a workspace owner to invite you, then open the
          link in the e-mail.
        </p>
        <button type="button" className="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </div>
    </main>
  );
}
