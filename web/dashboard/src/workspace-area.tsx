import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { ErrorBoundary } from './components/error-boundary';
import { LoadingState } from './components/query-status';
import { HumanRequestedAlerts } from './live/human-requested-alerts';
import { LiveEventsProvider } from './live/live-events';
import type { AccessTokens } from './session/access-tokens';
import { HOME } from './session/next-path';
import { SessionGate } from './session/session';
import { AppShell } from './shell/app-shell';
import { UnreadTitle } from './shell/inbox-badge';

/** A page loaded when first visited; `name` is its export. */
export function lazyPage<Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name) {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}

const InboxPage = lazyPage(() => import('./pages/inbox/inbox-page'), 'InboxPage');
const AgentsPage = lazyPage(() => import('./pages/agents/agents-page'), 'AgentsPage');
const NewAgentPage = lazyPage(() => import('./pages/agents/new-agent-page'), 'NewAgentPage');
const AgentPage = lazyPage(() => import('./pages/agents/agent-page'), 'AgentPage');
const DatastoresPage = lazyPage(() => import('./pages/datastores/datastores-page'), 'DatastoresPage');
const DatastorePage = lazyPage(() => import('./pages/datastores/datastore-page'), 'DatastorePage');
const AnalyticsPage = lazyPage(() => import('./pages/analytics/analytics-page'), 'AnalyticsPage');
const SettingsPage = lazyPage(() => import('./pages/settings/settings-page'), 'SettingsPage');
const NotFoundPage = lazyPage(() => import('./pages/not-found-page'), 'NotFoundPage');

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
