import { lazy, Suspense, type ComponentType } from 'react';
import { Redirect, Route, Router, Switch } from 'wouter';
import { LoadingState } from './components/query-status';
import type { AccessTokens } from './session/access-tokens';
import { HOME } from './session/next-path';
import { SessionGate } from './session/session';
import { AppShell } from './shell/app-shell';

/** A page loaded when first visited; `name` is its export. */
function page<Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name) {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}

const SignInPage = page(() => import('./pages/auth/sign-in-page'), 'SignInPage');
const SignUpPage = page(() => import('./pages/auth/sign-up-page'), 'SignUpPage');
const SetupPage = page(() => import('./pages/auth/setup-page'), 'SetupPage');
const InvitationPage = page(() => import('./pages/auth/invitation-page'), 'InvitationPage');
const ResetPasswordPage = page(() => import('./pages/auth/reset-password-page'), 'ResetPasswordPage');
const AgentsPage = page(() => import('./pages/agents/agents-page'), 'AgentsPage');
const NewAgentPage = page(() => import('./pages/agents/new-agent-page'), 'NewAgentPage');
const AgentPage = page(() => import('./pages/agents/agent-page'), 'AgentPage');
const DatastoresPage = page(() => import('./pages/datastores/datastores-page'), 'DatastoresPage');
const DatastorePage = page(() => import('./pages/datastores/datastore-page'), 'DatastorePage');
const SettingsPage = page(() => import('./pages/settings/settings-page'), 'SettingsPage');
const NotFoundPage = page(() => import('./pages/not-found-page'), 'NotFoundPage');

/** Routes of the dashboard (DESIGN §7: these URLs are a contract; state lives in the query string). */
export function App({ tokens }: { tokens: AccessTokens }) {
  return (
    <Router base="/dashboard">
      <Suspense fallback={<LoadingState fullPage />}>
        <Switch>
          <Route path="/sign-in" component={SignInPage} />
          <Route path="/sign-up" component={SignUpPage} />
          <Route path="/setup" component={SetupPage} />
          <Route path="/invitations" component={InvitationPage} />
          <Route path="/reset-password" component={ResetPasswordPage} />
          <Route>
            <SessionGate tokens={tokens}>
              <AppShell>
                <Suspense fallback={<LoadingState />}>
                  <Switch>
                    <Route path="/">
                      <Redirect to={HOME} replace />
                    </Route>
                    <Route path="/agents" component={AgentsPage} />
                    <Route path="/agents/new" component={NewAgentPage} />
                    <Route path="/agents/:id" component={AgentPage} />
                    <Route path="/datastores" component={DatastoresPage} />
                    <Route path="/datastores/:id" component={DatastorePage} />
                    <Route path="/settings">
                      <Redirect to="/settings/keys" replace />
                    </Route>
                    <Route path="/settings/*" component={SettingsPage} />
                    <Route component={NotFoundPage} />
                  </Switch>
                </Suspense>
              </AppShell>
            </SessionGate>
          </Route>
        </Switch>
      </Suspense>
    </Router>
  );
}
