/** Where a signed-in member lands when nothing else was asked for. */
export const HOME = '/agents';

/** The sign-in page, asked to come back to `path` (a path inside the dashboard) afterwards. */
export const signInPath = (path: string): string =>
  path === '/' || path === '' || path.startsWith('/sign-in') ? '/sign-in' : `/sign-in?next=${encodeURIComponent(path)}`;

/** A `next` parameter made safe: a path inside the dashboard, never another site. */
export function safeNext(next: string | null): string {
  if (next === null || !next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return HOME;
  return next;
}
