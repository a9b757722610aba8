import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError, setCredentialSource } from './api';
import { App } from './app';
import { startFirstScreen } from './first-screen';
import { sessionKeys } from './queries/session';
import { AccessTokens } from './session/access-tokens';
// The stylesheets in cascade order: later ones build on the palette and the controls of the earlier.
import './styles/base.css';
import './styles/shell.css';
import './styles/controls.css';
import './styles/content.css';
import './styles/widgets.css';
import './styles/tools.css';
import './styles/inbox.css';
import './styles/thread.css';
import './styles/composer.css';
import './styles/widget-settings.css';
import './styles/widget-sketch.css';
import './styles/channels.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // A 4xx answer will not change by asking again; a network failure or a 5xx might.
      retry: (failures, error) => failures < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      refetchOnWindowFocus: true,
    },
  },
});

// When the session behind the token has ended, asking who is signed in again leads to the sign-in page.
const tokens = new AccessTokens(() => void queryClient.invalidateQueries({ queryKey: sessionKeys.me }));
setCredentialSource(tokens);
startFirstScreen(queryClient, tokens);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App tokens={tokens} />
    </QueryClientProvider>
  </StrictMode>,
);
