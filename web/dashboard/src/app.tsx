import { lazy, Suspense } from 'react';
import { Route, Router, Switch, useLocation } from 'wouter';
import { ErrorBoundary } from './components/error-boundary';
import { lazyPage } from './components/lazy-page';
import { LoadingState } from './components/query-status';
import type { AccessTokens } from './session/access-tokens';

const signInPages = () => import('./pages/auth/auth-pages');
/** The pages used without a session, by path: loaded together, one small chunk for the first visit. */
const SIGNED_OUT_PAGES = (
  [
    ['/sign-in', 'SignInPage'],
    ['/sign-up', 'SignUpPage'],
    ['/setup', 'SetupPage'],
    ['/invitations', 'InvitationPage'],
    ['/forgot-password', 'ForgotPasswordPage'],
    ['/reset-password', 'ResetPasswordPage'],
  ] as const
).map(([path, name]) => ({ path, page: lazyPage(signInPages, name) }));
/** The shell and the workspace's pages (started early by first-screen.ts when a visit starts there). */
export const loadWorkspaceArea = () => import('./workspace-area');
const WorkspaceArea = lazy(() => loadWorkspaceArea().then((module) => ({ default: module.WorkspaceArea })));

/** Routes of the dashboard (docs/dashboard-api.md, "URLs": these URLs are a contract; state lives in the query string). */
export function App({ tokens }: { tokens: AccessTokens }) {
  return (
    <Router base="/dashboard">
      <Pages tokens={tokens} />
    </Router>
  );
}

function Pages({ tokens }: { tokens: AccessTokens }) {
  const [location] = useLocation();
  return (
    <ErrorBoundary resetKey={location}>
      <Suspense fallback={<LoadingState fullPage />}>
        <Switch>
          {SIGNED_OUT_PAGES.map(({ path, page }) => (
            <Route key={path} path={path} component={page} />
          ))}
          <Route>
            <WorkspaceArea tokens={tokens} />
          </Route>
        </Switch>
      </Suspense>
    </ErrorBoundary>
  );
}
