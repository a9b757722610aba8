import { Suspense, type ReactNode } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { ErrorBoundary } from './components/error-boundary';
import { lazyPage } from './components/lazy-page';
import { LoadingState } from './components/query-status';
import { pageChunks } from './page-chunks';
import { HumanRequestedAlerts } from './live/human-requested-alerts';
import { LiveEventsProvider } from './live/live-events';
import type { AccessTokens } from './session/access-tokens';
import { HOME } from './session/next-path';
import { SessionGate } from './session/session';
import { AppShell } from './shell/app-shell';
import { UnreadTitle } from './shell/inbox-badge';

const InboxPage = lazyPage(pageChunks.inbox, 'InboxPage');
const AgentsPage = lazyPage(pageChunks.agents, 'AgentsPage');
const NewAgentPage = lazyPage(pageChunks.newAgent, 'NewAgentPage');
const AgentPage = lazyPage(pageChunks.agent, 'AgentPage');
const DatastoresPage = lazyPage(pageChunks.datastores, 'DatastoresPage');
const DatastorePage = lazyPage(pageChunks.datastore, 'DatastorePage');
const AnalyticsPage = lazyPage(pageChunks.analytics, 'AnalyticsPage');
const SettingsPage = lazyPage(pageChunks.settings, 'SettingsPage');
const NotFoundPage = lazyPage(pageChunks.notFound, 'NotFoundPage');

/** The shell, with the workspace's events followed live for every page in it. */
function LiveShell({ children }: { children: ReactNode }) {
  return (
    <LiveEventsProvider>
      <UnreadTitle>
        <HumanRequestedAlerts />
        <AppShell>{children}</AppShell>
      </UnreadTitle>
    </LiveEventsProvider>
  );
}

/**
 * Everything behind the session: the shell and the workspace's pages. A chunk of its own, so the
 * sign-in page loads neither the shell's menus nor its dialogs.
 */
export function WorkspaceArea({ tokens }: { tokens: AccessTokens }) {
  const [location] = useLocation();
  return (
    <SessionGate tokens={tokens}>
      <LiveShell>
        <ErrorBoundary resetKey={location}>
          <Suspense fallback={<LoadingState />}>
            <Switch>
              <Route path="/">
                <Redirect to={HOME} replace />
              </Route>
              {/* One page for both: the list stays as it was while a conversation opens beside it. */}
              <Route path="/inbox" component={InboxPage} />
              <Route path="/conversations/:id" component={InboxPage} />
              <Route path="/agents" component={AgentsPage} />
              <Route path="/agents/new" component={NewAgentPage} />
              <Route path="/agents/:id" component={AgentPage} />
              <Route path="/datastores" component={DatastoresPage} />
              <Route path="/datastores/:id" component={DatastorePage} />
              <Route path="/analytics" component={AnalyticsPage} />
              <Route path="/settings">
                <Redirect to="/settings/keys" replace />
              </Route>
              <Route path="/settings/*" component={SettingsPage} />
              <Route component={NotFoundPage} />
            </Switch>
          </Suspense>
        </ErrorBoundary>
      </LiveShell>
    </SessionGate>
  );
}
