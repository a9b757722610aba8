import type { QueryClient } from '@tanstack/react-query';
import { loadWorkspaceArea } from './app';
import { pageChunks } from './page-chunks';
import { meQuery, type Me } from './queries/session';
import type { AccessTokens } from './session/access-tokens';
import { HOME } from './session/next-path';
import { initialWorkspace } from './session/workspace-choice';

/** The signed-in member and the workspace the first screen shows (the same choice the session gate makes). */
interface FirstSession {
  me: Me;
  workspaceId: string;
}

/** A page a visit often starts on: its chunk, and the queries it shows first (fetched into the cache before it mounts). */
interface StartPage {
  path: RegExp;
  chunk: () => Promise<unknown>;
  data?: (queryClient: QueryClient, session: Promise<FirstSession>, search: string) => Promise<unknown>;
}

const START_PAGES: readonly StartPage[] = [
  {
    path: /^\/agents$/,
    chunk: pageChunks.agents,
    data: async (queryClient, session) => {
      const [{ agentListQuery }, { workspaceId }] = await Promise.all([import('./queries/agents'), session]);
      return queryClient.prefetchQuery(agentListQuery(workspaceId));
    },
  },
  {
    path: /^\/(inbox$|conversations\/)/,
    chunk: pageChunks.inbox,
    data: async (queryClient, session, search) => {
      const [{ conversationListQuery, inboxCountsQuery }, { filterOf, readInboxSearch, tabSelection }, { me, workspaceId }] = await Promise.all([
        import('./queries/conversations'),
        import('./pages/inbox/inbox-search'),
        session,
      ]);
      const memberId = me.memberships.find((membership) => membership.workspaceId === workspaceId)?.memberId;
      if (memberId === undefined) return;
      const state = readInboxSearch(search);
      return Promise.all([
        queryClient.prefetchInfiniteQuery(conversationListQuery(workspaceId, tabSelection(state, memberId).list)),
        queryClient.prefetchQuery(inboxCountsQuery(workspaceId, filterOf(state))),
      ]);
    },
  },
  { path: /^\/agents\/new$/, chunk: pageChunks.newAgent },
  { path: /^\/agents\/[^/]+$/, chunk: pageChunks.agent },
  { path: /^\/datastores$/, chunk: pageChunks.datastores },
  { path: /^\/datastores\/[^/]+$/, chunk: pageChunks.datastore },
  { path: /^\/analytics$/, chunk: pageChunks.analytics },
  { path: /^\/settings(\/|$)/, chunk: pageChunks.settings },
];

/**
 * Starts, as soon as the entry chunk runs, everything the first screen of a workspace page waits for: who is
 * signed in (`GET /me`), then the workspace's access token and the page's first queries, while the shell's and
 * the page's chunks download. Left to the components, each began only once the one before had loaded and
 * mounted: the session's chunk, `/me`, the token, the page's chunk, its query. Signed-out pages start nothing.
 * What fails here is left to the components, which ask again and show it.
 */
export function startFirstScreen(queryClient: QueryClient, tokens: AccessTokens, { pathname, search } = window.location): void {
  const path = pathname.replace(/^\/dashboard/, '') || '/';
  const page = START_PAGES.find(({ path: pattern }) => pattern.test(path === '/' ? HOME : path));
  if (page === undefined) return;
  // The session first: a browser opens a few connections to a host, and the chunks would otherwise take them all.
  const session = queryClient.fetchQuery(meQuery).then((me) => {
    const workspaceId = initialWorkspace(me.memberships, search);
    if (workspaceId === undefined) throw new Error('a member of no workspace');
    // Requests wait for this token (api.ts asks the credential source); the session gate gets the same one.
    void tokens.use(workspaceId).catch(() => undefined);
    return { me, workspaceId };
  });
  void loadWorkspaceArea();
  void page.chunk();
  void (page.data?.(queryClient, session, search) ?? session).catch(() => undefined);
}
