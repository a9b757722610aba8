import { lazy, Suspense } from 'react';
import { Route, Router, Switch, useLocation } from 'wouter';
import { ErrorBoundary } from './components/error-boundary';
import { LoadingState } from './components/query-status';
import type { AccessTokens } from './session/access-tokens';

const signInPages = () => import('./pages/auth/auth-pages');
const SignInPage = lazy(() => signInPages().then((module) => ({ default: module.SignInPage })));
const SignUpPage = lazy(() => signInPages().then((module) => ({ default: module.SignUpPage })));
const SetupPage = lazy(() => signInPages().then((module) => ({ default: module.SetupPage })));
const InvitationPage = lazy(() => signInPages().then((module) => ({ default: module.InvitationPage })));
const ForgotPasswordPage = lazy(() => signInPages().then((module) => ({ default: module.ForgotPasswordPage })));
const ResetPasswordPage = lazy(() => signInPages().then((module) => ({ default: module.ResetPasswordPage })));
const WorkspaceArea = lazy(() => import('./workspace-area').then((module) => ({ default: module.WorkspaceArea })));

/** Routes of the dashboard (DESIGN §7: these URLs are a contract; state lives in the query string). */
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
          <Route path="/sign-in" component={SignInPage} />
          <Route path="/sign-up" component={SignUpPage} />
          <Route path="/setup" component={SetupPage} />
          <Route path="/invitations" component={InvitationPage} />
          <Route path="/forgot-password" component={ForgotPasswordPage} />
          <Route path="/reset-password" component={ResetPasswordPage} />
          <Route>
            <WorkspaceArea tokens={tokens} />
          </Route>
        </Switch>
      </Suspense>
    </ErrorBoundary>
  );
}
