/**
 * The hosted service answered at its API host's root and under `/api` on its app host, and most clients
 * written for it (its Zapier app, Pipedream, Activepieces, LangChain JS, its widget, anything generated
 * from its OpenAPI document) call `/api/<path>`. Every route answers under both: the router sees the
 * path without the prefix, so each route is registered once and logs, metrics, rate limits and CORS
 * see one route pattern whichever way it was called.
 */
export const API_PREFIX = '/api';

/** `url` without a leading `/api` segment (`/api/agents` → `/agents`, `/api` → `/`); other URLs unchanged. */
export function withoutApiPrefix(url: string): string {
  if (!url.startsWith(API_PREFIX)) return url;
  const rest = url.slice(API_PREFIX.length);
  if (rest === '' || rest.startsWith('?')) return `/${rest}`;
  // `/apiary` is not under the prefix.
  return rest.startsWith('/') ? rest : url;
}
