import type { ScopedReads, Visibility } from '../store/store.js';
import { forbidden, notFound, unauthorized } from '../errors.js';

/**
 * Loads a workspace-owned resource or says precisely why not: 403 when it is another workspace's,
 * 404 when it does not exist anywhere.
 */
export async function findInWorkspace<T>(reads: ScopedReads<T>, what: string, workspaceId: string, id: string): Promise<T> {
  const found = await reads.find(workspaceId, id);
  if (found !== undefined) return found;
  throw (await reads.ownerOf(id)) === undefined ? notFound(what, id) : forbidden(what, id);
}

/**
 * A resource a caller may use: with a key (`workspaceId`), one of that workspace's (403/404 otherwise);
 * without a key, only a public one (401 for a private one, 404 when there is none).
 */
export async function findUsable<T extends { visibility: Visibility }>(
  reads: ScopedReads<T>,
  what: string,
  workspaceId: string | null,
  id: string,
): Promise<T> {
  if (workspaceId !== null) return findInWorkspace(reads, what, workspaceId, id);
  const owner = await reads.ownerOf(id);
  const found = owner === undefined ? undefined : await reads.find(owner, id);
  if (found === undefined) throw notFound(what, id);
  if (found.visibility !== 'public') throw unauthorized(`${what} ${id} is private: send an API key of its workspace`);
  return found;
}
