import type { Membership } from '../queries/session';

const LAST_WORKSPACE = 'parley.workspace';

function rememberedWorkspace(): string | null {
  try {
    return localStorage.getItem(LAST_WORKSPACE);
  } catch {
    return null;
  }
}

/** Remembers the workspace in use for the next visit. */
export function rememberWorkspace(workspaceId: string): void {
  try {
    localStorage.setItem(LAST_WORKSPACE, workspaceId);
  } catch {
    // Private windows may refuse storage: the first workspace is then the default.
  }
}

/** The workspace named in the URL (`?workspace=`), else the one used last, else the first. */
export function initialWorkspace(memberships: readonly Membership[], search: string): string | undefined {
  const member = (id: string | null) => (id !== null && memberships.some((m) => m.workspaceId === id) ? id : undefined);
  return member(new URLSearchParams(search).get('workspace')) ?? member(rememberedWorkspace()) ?? memberships[0]?.workspaceId;
}
