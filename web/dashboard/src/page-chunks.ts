/**
 * The workspace pages' chunks: each loaded when first visited, and the one a visit starts on at once, beside
 * the session (first-screen.ts). Vite's loader fetches a chunk's own imports together with it, never in a chain.
 */
export const pageChunks = {
  inbox: () => import('./pages/inbox/inbox-page'),
  agents: () => import('./pages/agents/agents-page'),
  newAgent: () => import('./pages/agents/new-agent-page'),
  agent: () => import('./pages/agents/agent-page'),
  datastores: () => import('./pages/datastores/datastores-page'),
  datastore: () => import('./pages/datastores/datastore-page'),
  analytics: () => import('./pages/analytics/analytics-page'),
  settings: () => import('./pages/settings/settings-page'),
  notFound: () => import('./pages/not-found-page'),
};
